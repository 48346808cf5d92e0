// When each mode's graph starts (mode-graphs.ts runs it): within the threads, each job once the order it
// follows is known and its expected memory fits the budget beside what is counted; a graph handed back
// stays counted, and no other starts, until it is written and collected (its ~2 GiB of arrays at ×20×20
// are garbage the moment they are written, but stay resident until a collection: at ×20 the process
// went from 2.9 to 6.2 GiB while bike's written graph waited for one and car and foot grew). The order
// the jobs are tried in is chosen by simulating this same schedule (planSchedule), so the plan printed
// is the one followed.

export interface ScheduledJob {
  id: number;
  /** The job whose vertex order this one follows (truck: car's): it waits for that graph. */
  orderFrom?: number | null;
}

export interface ScheduleSetup {
  /** Most graphs built at once (a worker thread each). */
  threads: number;
  /** Cores, lent to a running contraction in rounds when fewer graphs than cores are being built. */
  cores: number;
  memory?: {
    budgetBytes: number;
    /** The process's RSS when the building began, every job's inputs still in it. */
    base: number;
    /** Each job's own arrays, handed to its worker when it starts (in the base until then). */
    inputs: ReadonlyMap<number, number>;
    /** A job's worker's expected peak, its contraction on `threads` threads. */
    jobBytes: (id: number, threads?: number) => number;
  };
  /** Whether a job's contraction runs in rounds (only then can it use a lent core). */
  inRounds: (id: number) => boolean;
}

/**
 * The process's memory with one more job started, as the budget counts it: the base (RSS when the
 * building began, every job's inputs still in it) less the inputs already handed to workers and this
 * job's own (they become its worker's, which its estimate counts), plus the estimates of the running jobs
 * and of this one.
 */
export function heldWith(at: { base: number; handedOver: number; inputs: number; expected: number; running: readonly number[] }): number {
  let held = at.base - at.handedOver - at.inputs + at.expected;
  for (const bytes of at.running) held += bytes;
  return held;
}

export class ModeGraphSchedule {
  private readonly waiting: ScheduledJob[];
  private readonly ids: ReadonlySet<number>;
  /** Running or handed back and not yet released: each with the bytes the budget counts for it. */
  private readonly counted = new Map<number, number>();
  /** Handed back, being written; released once written and collected. */
  private readonly finishing = new Set<number>();
  private readonly built = new Set<number>();
  private handedOver = 0;

  /** `jobs` in the order they are tried (planSchedule). */
  constructor(jobs: readonly ScheduledJob[], private readonly setup: ScheduleSetup) {
    this.waiting = [...jobs];
    this.ids = new Set(jobs.map((j) => j.id));
  }

  /** The job to start now, if any (then call started()). */
  next(): ScheduledJob | undefined {
    // A finished graph's buffers are counted as its worker's estimate until released; starting another
    // meanwhile is what overshot the budget.
    if (this.finishing.size > 0 || this.counted.size >= this.setup.threads) return undefined;
    return this.waiting.find((j) => this.orderKnown(j) && this.fits(j));
  }

  started(id: number): void {
    const at = this.waiting.findIndex((j) => j.id === id);
    if (at < 0) throw new Error(`mode graph job ${id} is not waiting`);
    this.waiting.splice(at, 1);
    this.counted.set(id, this.setup.memory?.jobBytes(id) ?? 0);
    this.handedOver += this.setup.memory?.inputs.get(id) ?? 0;
  }

  /** Its graph is back (its order known to the jobs that follow it); still counted until released(). */
  graphBack(id: number): void {
    if (!this.counted.has(id)) throw new Error(`mode graph job ${id} is not running`);
    this.finishing.add(id);
    this.built.add(id);
  }

  /** Its graph is written, its worker ended and the garbage collected: no longer counted. */
  released(id: number): void {
    this.finishing.delete(id);
    this.counted.delete(id);
  }

  get done(): boolean {
    return this.waiting.length === 0 && this.counted.size === 0;
  }

  /** Graphs being built now (not those handed back). */
  get building(): number {
    return this.counted.size - this.finishing.size;
  }

  /** Ids being built now. */
  get buildingIds(): number[] {
    return [...this.counted.keys()].filter((id) => !this.finishing.has(id));
  }

  /** What the budget counts now: the base, less the inputs handed over, plus every counted job. */
  held(): number {
    const memory = this.setup.memory;
    if (memory === undefined) return 0;
    return heldWith({ base: memory.base, handedOver: this.handedOver, inputs: 0, expected: 0, running: [...this.counted.values()] });
  }

  /**
   * Threads for each job being built: one, and the cores no graph is built on for the dearest (first
   * started) whose contraction runs in rounds, as many as fit the budget; its helpers then count as its
   * estimate (they keep their memory while they sit out). A contraction vertex by vertex or in a given
   * order cannot use them: lending to it would only inflate what the budget counts.
   */
  lend(): Map<number, number> {
    const out = new Map<number, number>();
    let spare = Math.max(0, this.setup.cores - this.counted.size);
    for (const id of this.buildingIds) {
      let threads = 1;
      if (spare > 0 && this.setup.inRounds(id)) {
        threads += spare;
        const memory = this.setup.memory;
        if (memory !== undefined) {
          const others = [...this.counted].filter(([other]) => other !== id).map(([, bytes]) => bytes);
          const held = (n: number): number => heldWith({ base: memory.base, handedOver: this.handedOver, inputs: 0, expected: memory.jobBytes(id, n), running: others });
          while (threads > 1 && held(threads) > memory.budgetBytes) threads--;
          if (threads > 1) this.counted.set(id, Math.max(this.counted.get(id)!, memory.jobBytes(id, threads)));
        }
        spare -= threads - 1;
      }
      out.set(id, threads);
    }
    return out;
  }

  private orderKnown(job: ScheduledJob): boolean {
    const from = job.orderFrom;
    return from == null || !this.ids.has(from) || this.built.has(from);
  }

  private fits(job: ScheduledJob): boolean {
    const memory = this.setup.memory;
    // The first always starts: one at a time is the least.
    if (memory === undefined || this.counted.size === 0) return true;
    const held = heldWith({
      base: memory.base, handedOver: this.handedOver, inputs: memory.inputs.get(job.id) ?? 0,
      expected: memory.jobBytes(job.id), running: [...this.counted.values()],
    });
    return held <= memory.budgetBytes;
  }
}

/** One start in a simulated schedule: the job, when (in the units of the expected times), and beside which. */
export interface PlannedStart {
  id: number;
  at: number;
  beside: number[];
  /** The job whose end let it start (undefined: at the beginning). */
  after?: number;
}

export interface SchedulePlan {
  /** The jobs in the order to try them. */
  order: ScheduledJob[];
  starts: PlannedStart[];
  /** The simulated wall, in the units of `expected`. */
  wall: number;
  /** The jobs' expected times added up: the wall of building them one after another. */
  serial: number;
  /** Each job's expected time. */
  expected: Map<number, number>;
}

/**
 * The order to try the jobs in that gives the shortest wall, found by running the schedule on every
 * order with each job taking its expected time (`expected`, any unit) and ending where it was expected
 * to; ties go to the order given (the dearest first). Four modes are 24 orders; at most eight jobs are
 * permuted (a larger set keeps the order given).
 */
export function planSchedule(jobs: readonly ScheduledJob[], setup: ScheduleSetup, expected: (id: number) => number): SchedulePlan {
  let best = simulate(jobs, setup, expected);
  if (jobs.length <= 8) {
    for (const order of permutations(jobs)) {
      const plan = simulate(order, setup, expected);
      if (plan.wall < best.wall - 1e-9 * best.wall) best = plan;
    }
  }
  return best;
}

function simulate(order: readonly ScheduledJob[], setup: ScheduleSetup, expected: (id: number) => number): SchedulePlan {
  // No lending in the simulation: expected times are for one thread.
  const schedule = new ModeGraphSchedule(order, { ...setup, inRounds: () => false });
  const ends = new Map<number, number>();
  const starts: PlannedStart[] = [];
  let now = 0;
  let after: number | undefined;
  for (;;) {
    for (let job = schedule.next(); job !== undefined; job = schedule.next()) {
      starts.push({ id: job.id, at: now, beside: [...ends.keys()], after });
      schedule.started(job.id);
      ends.set(job.id, now + expected(job.id));
    }
    if (ends.size === 0) break;
    const [id, end] = [...ends].reduce((a, b) => (b[1] < a[1] ? b : a));
    ends.delete(id);
    now = end;
    after = id;
    schedule.graphBack(id);
    schedule.released(id);
  }
  if (!schedule.done) throw new Error('mode graph schedule: a job can never start (its order comes from a job that never ends)');
  return {
    order: [...order], starts, wall: now, serial: order.reduce((sum, j) => sum + expected(j.id), 0), expected: new Map(order.map((j) => [j.id, expected(j.id)])),
  };
}

function* permutations<T>(items: readonly T[]): Generator<T[]> {
  if (items.length <= 1) {
    yield [...items];
    return;
  }
  for (let i = 0; i < items.length; i++) {
    const rest = [...items.slice(0, i), ...items.slice(i + 1)];
    for (const tail of permutations(rest)) yield [items[i], ...tail];
  }
}

/**
 * The plan in words, by mode name, the jobs starting at once together: "bike with car; truck after car,
 * beside bike; foot after truck, beside bike".
 */
export function describePlan(plan: SchedulePlan, name: (id: number) => string): string {
  if (plan.starts.length === 0) return 'nothing to build';
  const groups: PlannedStart[][] = [];
  for (const s of plan.starts) {
    const last = groups[groups.length - 1];
    if (last !== undefined && last[0].at === s.at && last[0].after === s.after) last.push(s);
    else groups.push([s]);
  }
  const parts = groups.map((group) => {
    const ids = new Set(group.map((s) => s.id));
    const together = group.map((s) => name(s.id)).join(' with ');
    const beside = group[0].beside.filter((id) => !ids.has(id)).map(name);
    const after = group[0].after === undefined ? '' : ` after ${name(group[0].after)}`;
    return `${together}${group.length === 1 && group[0].after === undefined && beside.length === 0 ? ' alone' : ''}${after}${beside.length > 0 ? `, beside ${beside.join(' and ')}` : group[0].after === undefined ? '' : group.length === 1 ? ', alone' : ''}`;
  });
  const dearest = Math.max(...plan.expected.values());
  const times = [...plan.expected].map(([id, t]) => `${name(id)} ${(t / dearest).toFixed(2)}`).join(', ');
  return `${parts.join('; ')} (expected times ${times} of the dearest)`;
}
