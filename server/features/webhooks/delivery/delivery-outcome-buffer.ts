// Outcomes of delivered requests written in groups: one transaction per delivery would cost more than
// the delivery itself. A crash loses at most FLUSH_ROWS acknowledged requests' outcomes (more when the
// last row is a bundle, whose end the count waits for, up to FLUSH_MS), and those requests are sent
// again, which at-least-once delivery allows. Failures are written at once.
import type { WriteOp } from '../../../../ports/store';

const FLUSH_ROWS = 25;
/** A group is written once its first outcome is this old (ms), if it has not filled before. */
export const FLUSH_MS = 200;

export interface BufferedOutcomes {
  ops: WriteOp[];
  /** Counted once the writes are committed. */
  onWritten: Array<() => void>;
}

export class OutcomeBuffer {
  private ops: WriteOp[] = [];
  private rows = 0;
  private firstMs = 0;
  private onWritten: Array<() => void> = [];

  get empty(): boolean {
    return this.ops.length === 0;
  }

  add(ops: readonly WriteOp[], onWritten: () => void, nowMs: number): void {
    if (this.rows === 0) this.firstMs = nowMs;
    this.ops.push(...ops);
    this.rows++;
    this.onWritten.push(onWritten);
  }

  /**
   * Whether to write now. Within a bundle the row count waits for its end: flushed there, a finished
   * bundle is one delete, where a flush between its parts rewrites the whole row to record its progress.
   */
  due(endsRow: boolean, nowMs: number): boolean {
    return (endsRow && this.rows >= FLUSH_ROWS) || nowMs - this.firstMs >= FLUSH_MS;
  }

  /** Everything buffered, with only the last write of each document; the buffer is empty after. */
  take(): BufferedOutcomes {
    const taken = { ops: lastPerDocument(this.ops), onWritten: this.onWritten };
    this.ops = [];
    this.rows = 0;
    this.onWritten = [];
    return taken;
  }
}

/**
 * Buffered outcomes with only the last write of each document, in the order of those last writes: a
 * bundle moves past each part it delivers, and only where it stands at the flush needs writing.
 */
function lastPerDocument(ops: readonly WriteOp[]): WriteOp[] {
  const documentOf = (op: WriteOp): string => `${op.collection} ${op.op === 'delete' ? op.id : op.doc._id}`;
  const last = new Map<string, number>();
  ops.forEach((op, i) => last.set(documentOf(op), i));
  return ops.filter((op, i) => last.get(documentOf(op)) === i);
}
