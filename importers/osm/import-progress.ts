// Progress of an import as steps ("read nodes and ways", "routing"…), each with its place among the
// import's steps, counts, a rate, an estimate of the time left and the time since the import started,
// for the CLI to draw and the summary to list. The pipeline reports, it never prints.
export interface ProgressEvent {
  /** The step, e.g. `read nodes and ways` or `routing`. */
  label: string;
  /** 1-based place of the step among the import's steps, and how many there are. */
  step: number;
  steps: number;
  /** What the step is doing now in plain words, e.g. `contracting the road graphs`. */
  phase: string;
  done: number;
  /** Unknown for phases that cannot tell in advance. */
  total?: number;
  /** Counts and rates, e.g. `1,204,332 nodes (2.1 M/s), 40,112 ways`. */
  detail: string;
  /** Items a second in the current phase (0 until something is done). */
  rate: number;
  /** Estimated seconds left in the current phase, from its rate so far; undefined when unknown. */
  secondsLeft?: number;
  /** Wall seconds since the import started. */
  elapsed: number;
  /** Set on the last event of a step. */
  finished?: boolean;
  /** On the last event of a step: its peak resident memory, bytes (StepTiming.peakRssBytes). */
  peakRssBytes?: number;
}

export interface StepTiming {
  label: string;
  seconds: number;
  detail: string;
  /** The process's peak resident memory while the step ran, bytes (see ProgressStep.peakRssBytes). */
  peakRssBytes: number;
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

/** `75` → `1 min 15 s`; `4000` → `1 h 06 min`; under a minute, whole seconds. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
}

/** Where a step stands among the import's steps, and when the import started (hrtime, ns). */
export interface StepPlace {
  step: number;
  steps: number;
  importStarted: bigint;
}

const secondsSince = (t: bigint): number => Number(process.hrtime.bigint() - t) / 1e9;

/** The process's peak resident memory so far (the kernel's, not a sample), bytes. */
export const processPeakRss = (): number => process.resourceUsage().maxRSS * 1024;

/**
 * A step's own peak of resident memory. The kernel keeps only the process's peak: when it rose during
 * the step, that is the step's; otherwise the step stayed below an earlier one, and the highest of the
 * samples taken at its reports (and at its start and end) stands for it, a lower bound.
 */
export class StepPeak {
  private readonly peakAtStart = processPeakRss();
  private sampled = process.memoryUsage.rss();

  sample(): void {
    const rss = process.memoryUsage.rss();
    if (rss > this.sampled) this.sampled = rss;
  }

  get bytes(): number {
    this.sample();
    const peak = processPeakRss();
    return peak > this.peakAtStart ? peak : this.sampled;
  }
}

/** One step: throttles updates, measures its own time and the rate of its current phase. */
export class ProgressStep {
  private readonly started = process.hrtime.bigint();
  private lastReportMs = 0;
  private phase = '';
  private phaseStarted = this.started;
  private readonly peak = new StepPeak();

  constructor(
    private readonly label: string,
    private readonly sink: ((e: ProgressEvent) => void) | undefined,
    private readonly place: StepPlace = { step: 1, steps: 1, importStarted: process.hrtime.bigint() },
  ) {}

  get seconds(): number {
    return secondsSince(this.started);
  }

  /** `counts` as name → count; each gets a rate over the step's time so far. */
  describe(counts: Record<string, number>): string {
    const s = Math.max(this.seconds, 1e-6);
    return Object.entries(counts).map(([name, n]) => `${formatCount(n)} ${name} (${formatRate(n / s)})`).join(', ');
  }

  /**
   * `phase` names what is being counted (a new phase restarts its rate and estimate); `detail` shows
   * counts in words; without it, `done of total (rate)`, followed by `more` (e.g. the state of parts).
   * A function for `detail` is called only when a line is reported: the reading updates after every block,
   * and formatting its counts each time cost 1.5 % of the importing thread.
   */
  update(done: number, total: number | undefined, detail: string | (() => string) | undefined, phase = this.label, more?: string): void {
    const newPhase = phase !== this.phase;
    if (newPhase) {
      this.phase = phase;
      this.phaseStarted = process.hrtime.bigint();
    }
    if (!this.sink) return;
    const now = Date.now();
    // A new phase is always reported: it may be the last word before seconds of work without one.
    if (now - this.lastReportMs < REPORT_EVERY_MS && !newPhase) return;
    this.lastReportMs = now;
    this.peak.sample();
    const inPhase = secondsSince(this.phaseStarted);
    const rate = inPhase > 0 ? done / inPhase : 0;
    const secondsLeft = total !== undefined && total > 0 && done > 0 && inPhase >= 1 ? Math.max(0, total - done) / rate : undefined;
    const counts = `${formatCount(done)}${total === undefined ? '' : ` of ${formatCount(total)}`}${done > 0 ? ` (${formatRate(rate)})` : ''}`;
    this.sink({
      label: this.label, step: this.place.step, steps: this.place.steps, phase, done, total, detail: `${(typeof detail === 'function' ? detail() : detail) ?? counts}${more ? `; ${more}` : ''}`, rate, secondsLeft,
      elapsed: secondsSince(this.place.importStarted),
    });
  }

  finish(detail: string): StepTiming {
    const timing: StepTiming = { label: this.label, seconds: this.seconds, detail, peakRssBytes: this.peak.bytes };
    this.sink?.({
      label: this.label, step: this.place.step, steps: this.place.steps, phase: 'done', done: 1, total: 1,
      detail: `${detail} in ${timing.seconds.toFixed(2)} s, peak memory ${formatBytes(timing.peakRssBytes)}`, rate: 0, secondsLeft: 0,
      elapsed: secondsSince(this.place.importStarted), finished: true, peakRssBytes: timing.peakRssBytes,
    });
    return timing;
  }
}
