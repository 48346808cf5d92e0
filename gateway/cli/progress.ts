// A progress line for long operations: redrawn in place on a terminal, printed every ~10% otherwise (CI logs).
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
