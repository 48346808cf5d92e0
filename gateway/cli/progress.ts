// A progress line for long operations: redrawn in place on a terminal, printed every ~10% otherwise (CI logs).
export interface Progress {
  update(done: number, total: number): void;
  finish(summary: string): void;
}

export function progressBar(label: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  const tty = stream.isTTY === true;
  let lastDecile = -1;
  let lastDrawMs = 0;
  return {
    update(done, total) {
      const share = total > 0 ? Math.min(1, done / total) : 0;
      if (tty) {
        const now = Date.now();
        if (now - lastDrawMs < 100 && done < total) return;
        lastDrawMs = now;
        const width = 30;
        const filled = Math.round(share * width);
        stream.write(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(share * 100).toFixed(0)}% ${done}/${total}`);
      } else {
        const decile = Math.floor(share * 10);
        if (decile > lastDecile) {
          lastDecile = decile;
          stream.write(`${label}: ${(share * 100).toFixed(0)}% (${done}/${total})\n`);
        }
      }
    },
    finish(summary) {
      stream.write(`${tty ? '\r\x1b[K' : ''}${label}: ${summary}\n`);
    },
  };
}
