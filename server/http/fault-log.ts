// Logging failures that repeat on every request (a full disk, a lost database) without flooding the
// log: the first of a kind is logged at once, then at most one line per kind every EVERY_MS, carrying
// how many were not logged since. Lines carry the message, not the stack: the stack of the thousandth
// "database or disk is full" says nothing the first did not.
import type { Logger } from '../../ports/logger';

const EVERY_MS = 10_000;

export class FaultLog {
  private readonly kinds = new Map<string, { loggedMs: number; unlogged: number }>();

  constructor(
    private readonly logger: Logger,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Logs `message` with `fields` unless a line of this `kind` was logged within the period. */
  error(kind: string, message: string, fields: Record<string, unknown>): void {
    const now = this.clock();
    const seen = this.kinds.get(kind);
    if (seen && now - seen.loggedMs < EVERY_MS) {
      seen.unlogged++;
      return;
    }
    const unlogged = seen?.unlogged ?? 0;
    this.kinds.set(kind, { loggedMs: now, unlogged: 0 });
    this.logger.error(message, { ...fields, ...(unlogged > 0 ? { alsoSinceLastLine: unlogged } : {}) });
  }
}
