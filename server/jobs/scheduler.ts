// Runs background jobs at a fixed period, one run of a job at a time, and stops them on shutdown.
// A failing run is logged and retried next period; it never takes the process down.
import type { Logger } from '../../ports/logger';

export interface Job {
  name: string;
  run(now: Date): Promise<number>;
}

export class Scheduler {
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly running = new Set<Promise<unknown>>();

  constructor(private readonly logger: Logger) {}

  every(periodMs: number, job: Job): void {
    if (periodMs <= 0) return;
    let busy = false;
    const timer = setInterval(() => {
      if (busy) return;
      busy = true;
      const run = this.runOnce(job).finally(() => {
        busy = false;
        this.running.delete(run);
      });
      this.running.add(run);
    }, periodMs);
    timer.unref();
    this.timers.push(timer);
  }

  async runOnce(job: Job): Promise<number> {
    try {
      const count = await job.run(new Date());
      if (count > 0) this.logger.info('job ran', { job: job.name, count });
      return count;
    } catch (err) {
      this.logger.error('job failed', { job: job.name, error: err instanceof Error ? err.message : String(err) });
      return 0;
    }
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    await Promise.all(this.running);
  }
}
