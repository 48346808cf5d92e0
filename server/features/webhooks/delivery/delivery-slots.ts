// Which endpoints drain now. Every project has its own slots (WAYMARK_WEBHOOK_CONCURRENCY of them, by
// default as many as a project can have webhooks): a project's endpoints never wait for a slot another
// project holds, however slow that project's receivers are. Within a project, when its endpoints want
// more slots than it has, they take turns: a drain whose project has endpoints waiting hands its slot
// on after its current request (drainer's `mustYield`), and the waiting endpoints are started in the
// order they asked.
export class DrainSlots {
  private readonly running = new Map<string, number>();
  /** Per project, the endpoints waiting for a slot and how to start each; insertion order is the turn order. */
  private readonly waiting = new Map<string, Map<string, () => void>>();

  constructor(private readonly perProject: number) {}

  /** Starts `start` now when the project has a free slot, else queues it (once per key). */
  request(project: string, key: string, start: () => void): void {
    const running = this.running.get(project) ?? 0;
    if (running < this.perProject) {
      this.running.set(project, running + 1);
      start();
      return;
    }
    let queue = this.waiting.get(project);
    if (!queue) this.waiting.set(project, (queue = new Map()));
    if (!queue.has(key)) queue.set(key, start);
  }

  /** A drain of `project` ended: its slot goes to the project's longest-waiting endpoint, if any. */
  release(project: string): void {
    const queue = this.waiting.get(project);
    const next = queue?.entries().next();
    if (queue && next && !next.done) {
      const [key, start] = next.value;
      queue.delete(key);
      if (queue.size === 0) this.waiting.delete(project);
      start();
      return;
    }
    const running = (this.running.get(project) ?? 1) - 1;
    if (running <= 0) this.running.delete(project);
    else this.running.set(project, running);
  }

  /** Endpoints of `project` wait for a slot: a drain of it should hand its slot on. */
  mustYield(project: string): boolean {
    return this.waiting.has(project);
  }

  isWaiting(project: string, key: string): boolean {
    return this.waiting.get(project)?.has(key) ?? false;
  }

  /** Forgets every waiting endpoint (shutdown). */
  clearWaiting(): void {
    this.waiting.clear();
  }

  /** Drains running now, all projects. */
  get size(): number {
    let n = 0;
    for (const r of this.running.values()) n += r;
    return n;
  }
}
