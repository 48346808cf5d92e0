// An endpoint's outcome writes, kept across its drains. Delivered requests' writes are grouped
// (delivery-outcome-buffer.ts: 25 requests or 200 ms) and a due group is written behind the next requests
// rather than before them; anything not delivered (a retry, a dead letter) is written before going on.
//
// The buffer outlives the drain that filled it. When delivery keeps pace with track, every update's rows
// wake the endpoint and its drain finds one row: a drain that wrote its outcome as it ended cost a
// transaction (the outcome, its log entry and the renewed lease, under the endpoint's lock) per delivery,
// as much CPU again as the request itself (bench/webhooks.ts part C). Now the group is written when it is
// due, by the drain that fills it or by a timer once the endpoint is idle; a crash loses at most a group,
// whose requests are sent again, as at-least-once delivery already allows.
//
// Reads of the queue must not show a row whose outcome is only in memory: `view` lays the buffered (and
// being-written) state of the outbox rows over a page read from the Store, so a drain never waits for a
// commit before it reads its next page.
import { putInto, type Scope, type WriteOp } from '../../../../ports/store';
import type { OutboxRow } from '../webhook-docs';
import type { EndpointLeases } from './delivery-leases';
import { FLUSH_MS, OutcomeBuffer } from './delivery-outcome-buffer';
import type { Turn } from './delivery-outcomes';
import { OUTBOX } from '../../../api/collections';

/** An outbox row as this node last decided it: its new state, or null once deleted; `group`: the write it is in. */
interface Overlaid {
  doc: OutboxRow | null;
  group: number;
}

export class EndpointWrites {
  private readonly buffer = new OutcomeBuffer();
  /** Outbox rows whose latest state is in the buffer or in a write not yet committed. */
  private readonly overlay = new Map<string, Overlaid>();
  /** The group the buffer fills; each write takes one. */
  private group = 0;
  /** The write in flight, if any: one group is written at a time, in order. */
  private writing: Promise<boolean> | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** False once a write found the endpoint held by another owner: nothing more is written. */
  private owned = true;

  constructor(
    private readonly leases: EndpointLeases,
    private readonly scope: Scope,
    private readonly webhookId: string,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Whether the endpoint is still this node's to write for. */
  get lost(): boolean {
    return !this.owned;
  }

  /** Nothing buffered and nothing being written: the entry may be dropped. */
  get quiet(): boolean {
    return this.buffer.empty && this.writing === undefined;
  }

  /**
   * A page of pending rows as this node knows them: rows delivered or given up in memory left out (not
   * even read: parsing them cost as much as the rows the page is for, under load a group of 25 and the
   * one being written), a bundle's progress and a retry's schedule as decided. `read` is asked for
   * `limit` rows plus those memory may still show as pending; `full` says whether the Store had more.
   */
  async view(read: (limit: number, exceptIds: string[]) => Promise<OutboxRow[]>, limit: number): Promise<{ docs: OutboxRow[]; full: boolean }> {
    const gone: string[] = [];
    for (const [id, known] of this.overlay) if (known.doc === null || known.doc.state !== 'pending') gone.push(id);
    const asked = limit + this.overlay.size - gone.length;
    const raw = await read(asked, gone);
    const docs: OutboxRow[] = [];
    for (const row of raw) {
      const known = this.overlay.get(row._id);
      const doc = known === undefined ? row : known.doc;
      if (doc !== null && doc.state === 'pending') docs.push(doc);
    }
    return { docs, full: raw.length >= asked };
  }

  /** Adds a turn's writes; false when the endpoint was lost to another owner. */
  async add(turn: Turn, endsRow: boolean, startedMs: number, nowMs: number): Promise<boolean> {
    if (!this.owned) return false;
    this.buffer.add(turn.ops, turn.onWritten, startedMs);
    for (const op of turn.ops) {
      if (op.collection !== OUTBOX.name) continue;
      const row = putInto(OUTBOX, op);
      if (op.op === 'delete') this.overlay.set(op.id, { doc: null, group: this.group });
      else if (row) this.overlay.set(row._id, { doc: row, group: this.group });
    }
    if (!turn.delivered) return this.flush();
    if (!this.buffer.due(endsRow, nowMs)) {
      this.armTimer();
      return true;
    }
    // One group being written at a time: the next waits for the one before it.
    if (this.writing !== undefined && !(await this.writing)) return false;
    if (!this.buffer.empty && this.owned) this.write();
    return this.owned;
  }

  /** Writes everything buffered and waits for it; false when the endpoint was lost to another owner. */
  async flush(): Promise<boolean> {
    this.disarmTimer();
    if (!this.buffer.empty && this.owned) this.write();
    for (let last: Promise<boolean> | undefined; this.writing !== undefined && this.writing !== last; ) {
      last = this.writing;
      await last;
    }
    return this.owned;
  }

  /** Writes the buffer as one group, after the group being written (if any) committed. */
  private write(): Promise<boolean> {
    this.disarmTimer();
    const group = this.group++;
    const { ops, onWritten } = this.buffer.take();
    const before = this.writing ?? Promise.resolve(true);
    const writing: Promise<boolean> = before
      .then((ok) => ok, () => false)
      .then((ok) => (ok ? this.commit(ops) : false))
      .then(
        (ok) => {
          if (this.writing === writing) this.writing = undefined;
          if (!ok) {
            this.forget();
            return false;
          }
          for (const [id, known] of this.overlay) if (known.group <= group) this.overlay.delete(id);
          for (const count of onWritten) count();
          return true;
        },
        (err: unknown) => {
          if (this.writing === writing) this.writing = undefined;
          // Nothing of the group is known to be written: its rows are pending in the Store and must be
          // sent again, so memory may not hide them any more.
          this.forget();
          throw err;
        },
      );
    // Awaited by the next add or flush; a failure surfaces there and not as an unhandled rejection meanwhile.
    writing.catch(() => undefined);
    this.writing = writing;
    return writing;
  }

  private commit(ops: WriteOp[]): Promise<boolean> {
    return this.leases.commit(this.scope, this.webhookId, ops);
  }

  /** The endpoint is not ours (or a write failed): what memory holds is dropped, the rows are sent again. */
  private forget(): void {
    this.owned = false;
    this.disarmTimer();
    this.buffer.take();
    this.overlay.clear();
  }

  /** A group left in the buffer when the endpoint goes idle is written FLUSH_MS after it began (at most). */
  private armTimer(): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush().catch((err: unknown) => this.onError(err));
    }, FLUSH_MS);
    this.timer.unref();
  }

  private disarmTimer(): void {
    if (this.timer === undefined) return;
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
