// A cheap write probe of the data directory, for readiness on the SQLite store: 4 KiB written, synced
// and removed, at most once per PROBE_EVERY_MS whatever the probe rate. It fails as the database's
// writes would on a full disk (ENOSPC), a read-only one (EROFS) or a failing one (EIO), and succeeds
// again once the operator freed space, so a node taken out of rotation comes back without traffic.
import fs from 'node:fs';
import path from 'node:path';

const PROBE_FILE = '.ready-probe';
const PROBE_BYTES = Buffer.alloc(4096, 0x2e);
const PROBE_EVERY_MS = 2000;

export interface ProbeResult {
  ok: boolean;
  detail?: string;
  atMs: number;
}

export class DiskProbe {
  private last: ProbeResult | undefined;

  constructor(
    private readonly dir: string,
    private readonly clock: () => number = Date.now,
  ) {}

  check(): ProbeResult {
    const now = this.clock();
    if (this.last && now - this.last.atMs < PROBE_EVERY_MS) return this.last;
    const file = path.join(this.dir, PROBE_FILE);
    let fd: number | undefined;
    try {
      fd = fs.openSync(file, 'w');
      fs.writeSync(fd, PROBE_BYTES);
      fs.fsyncSync(fd);
      this.last = { ok: true, atMs: now };
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const why = code === 'ENOSPC' ? 'the disk is full' : code === 'EROFS' ? 'the file system is read-only' : code === 'EIO' ? 'the disk reports I/O errors' : (err as Error).message;
      this.last = { ok: false, detail: `the data directory cannot be written: ${why}${code ? ` (${code})` : ''}`, atMs: now };
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
      fs.rmSync(file, { force: true });
    }
    return this.last;
  }
}
