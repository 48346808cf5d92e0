// A progress line for long operations: redrawn in place on a terminal, printed every ~10% otherwise (CI logs).
import { formatDuration, type ProgressEvent } from '../../importers/osm/import-progress';

export interface Progress {
  /** `detail` (counts, rates) is shown after the share; a total of 0 shows the counts alone. */
  update(done: number, total: number, detail?: string): void;
  finish(summary: string): void;
}

const UNBOUNDED_LINE_MS = 5000;

export function progressBar(label: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  const tty = stream.isTTY === true;
  let lastDecile = -1;
  let lastDrawMs = 0;
  return {
    update(done, total, detail) {
      const share = total > 0 ? Math.min(1, done / total) : 0;
      const extra = detail ? ` ${detail}` : '';
      if (tty) {
        const now = Date.now();
        if (now - lastDrawMs < 100 && done < total) return;
        lastDrawMs = now;
        const width = 30;
        const filled = Math.round(share * width);
        const bar = total > 0 ? ` [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(share * 100).toFixed(0)}% ${done}/${total}` : '';
        stream.write(`\r\x1b[K${label}${bar}${extra}`);
      } else if (total > 0) {
        const decile = Math.floor(share * 10);
        if (decile > lastDecile) {
          lastDecile = decile;
          stream.write(`${label}: ${(share * 100).toFixed(0)}% (${done}/${total})${extra}\n`);
        }
      } else {
        // No total, no deciles: a line every few seconds at most keeps CI logs short.
        const now = Date.now();
        if (now - lastDrawMs < UNBOUNDED_LINE_MS) return;
        lastDrawMs = now;
        stream.write(`${label}:${extra || ` ${done}`}\n`);
      }
    },
    finish(summary) {
      stream.write(`${tty ? '\r\x1b[K' : ''}${label}: ${summary}\n`);
    },
  };
}

/** What the CLI draws of an import step's report: all of it but the rate, already in `detail`. */
export type StepEvent = Omit<ProgressEvent, 'rate'>;

/** Off a terminal, a line at least this often while a step runs, so a log shows the import is alive. */
const STEP_HEARTBEAT_MS = 5000;

/** `[3/5] routing: contracting the road graphs 42% · 520,000 of 1,246,944 (4.1 k/s) · about 2 min 10 s left · 3 min 05 s since start` */
export function stepLine(e: StepEvent): string {
  const place = `[${e.step}/${e.steps}] ${e.label}`;
  if (e.finished) return `${place}: ${e.detail} (${formatDuration(e.elapsed)} since start)`;
  const share = e.total !== undefined && e.total > 0 ? ` ${Math.min(100, Math.floor((e.done / e.total) * 100))}%` : '';
  const left = e.secondsLeft === undefined ? '' : ` · about ${formatDuration(e.secondsLeft)} left`;
  return `${place}: ${e.phase}${share} · ${e.detail}${left} · ${formatDuration(e.elapsed)} since start`;
}

/**
 * Import steps as lines: redrawn in place on a terminal; otherwise a line when a phase starts, at every
 * tenth of it, and at least every STEP_HEARTBEAT_MS.
 */
export function stepLines(stream: NodeJS.WriteStream = process.stderr): (e: StepEvent) => void {
  const tty = stream.isTTY === true;
  let lastKey = '';
  let lastDecile = -1;
  let lastLineMs = 0;
  return (e) => {
    const now = Date.now();
    if (e.finished) {
      stream.write(`${tty ? '\r\x1b[K' : ''}${stepLine(e)}\n`);
      lastKey = '';
      return;
    }
    if (tty) {
      if (now - lastLineMs < 100) return;
      lastLineMs = now;
      stream.write(`\r\x1b[K${stepLine(e)}`);
      return;
    }
    const key = `${e.step} ${e.phase}`;
    const decile = e.total !== undefined && e.total > 0 ? Math.floor((e.done / e.total) * 10) : -1;
    if (key === lastKey && decile <= lastDecile && now - lastLineMs < STEP_HEARTBEAT_MS) return;
    lastKey = key;
    lastDecile = decile;
    lastLineMs = now;
    stream.write(`${stepLine(e)}\n`);
  };
}
