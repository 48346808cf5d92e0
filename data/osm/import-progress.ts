// Progress of an import as steps ("read nodes and ways", "routing: contract"…), each with counts, a
// rate and its time, for the CLI to draw and the summary to list. The pipeline reports, it never prints.
export interface ProgressEvent {
  /** The step, e.g. `read nodes and ways` or `routing: graph`. */
  label: string;
  done: number;
  /** Unknown for steps that cannot tell in advance. */
  total?: number;
  /** Counts and rates, e.g. `1,204,332 nodes (2.1 M/s), 40,112 ways`. */
  detail: string;
  /** Set on the last event of a step. */
  finished?: boolean;
}

export interface StepTiming {
  label: string;
  seconds: number;
  detail: string;
}

const REPORT_EVERY_MS = 200;

export function formatCount(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

export function formatRate(perSecond: number): string {
  if (perSecond >= 1e6) return `${(perSecond / 1e6).toFixed(1)} M/s`;
  if (perSecond >= 1e3) return `${(perSecond / 1e3).toFixed(1)} k/s`;
  return `${Math.round(perSecond)}/s`;
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1 << 30) return `${(bytes / (1 << 30)).toFixed(2)} GiB`;
  if (bytes >= 1 << 20) return `${(bytes / (1 << 20)).toFixed(1)} MiB`;
  return `${(bytes / 1024).toFixed(0)} KiB`;
}

/** One step: throttles updates and measures its own time. */
export class ProgressStep {
  private readonly started = process.hrtime.bigint();
  private lastReportMs = 0;

  constructor(private readonly label: string, private readonly sink: ((e: ProgressEvent) => void) | undefined) {}

  get seconds(): number {
    return Number(process.hrtime.bigint() - this.started) / 1e9;
  }

  /** `counts` as name → count; each gets a rate over the step's time so far. */
  describe(counts: Record<string, number>): string {
    const s = Math.max(this.seconds, 1e-6);
    return Object.entries(counts).map(([name, n]) => `${formatCount(n)} ${name} (${formatRate(n / s)})`).join(', ');
  }

  update(done: number, total: number | undefined, detail: string): void {
    if (!this.sink) return;
    const now = Date.now();
    if (now - this.lastReportMs < REPORT_EVERY_MS) return;
    this.lastReportMs = now;
    this.sink({ label: this.label, done, total, detail });
  }

  finish(detail: string): StepTiming {
    const timing = { label: this.label, seconds: this.seconds, detail };
    this.sink?.({ label: this.label, done: 1, total: 1, detail: `${detail} in ${timing.seconds.toFixed(2)} s`, finished: true });
    return timing;
  }
}
