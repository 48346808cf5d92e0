// Random hex ids from the operating system's CSPRNG, drawn from a pooled buffer: one randomFillSync call
// per 4 KiB rather than one per id (a webhook attempt needs a fresh signing id). Bytes are used once.
import { randomFillSync } from 'node:crypto';

const POOL_BYTES = 4096;

export class RandomHex {
  private readonly pool = Buffer.alloc(POOL_BYTES);
  private offset = POOL_BYTES;

  /** `bytes` random bytes (at most 4096) as lowercase hex. */
  next(bytes: number): string {
    if (bytes > POOL_BYTES) throw new RangeError(`RandomHex: at most ${POOL_BYTES} bytes at a time`);
    if (this.offset + bytes > POOL_BYTES) {
      randomFillSync(this.pool);
      this.offset = 0;
    }
    const start = this.offset;
    this.offset += bytes;
    return this.pool.toString('hex', start, start + bytes);
  }
}
