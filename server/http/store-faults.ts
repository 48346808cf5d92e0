// The store faults requests met (adapters/store/store-fault.ts), for the error handler and readiness:
// what a client is told, how long it should wait, and whether writes are failing now. Writes count as
// failing from a fault until the next commit (the store announces every commit), for at most
// FAULT_WINDOW_MS: a node taken out of its load balancer's rotation gets no writes to show it recovered,
// and readiness then probes the disk itself (readiness.ts).
import { storeFaultOf, type StoreFault } from '../../adapters/store/store-fault';
import type { Store } from '../../ports/store';
import { Counter } from './prometheus-text';
import { StoreUnavailable } from './errors';

export const FAULT_WINDOW_MS = 30_000;

const ANSWERS: Record<StoreFault, { message: string; retryAfterSeconds: number }> = {
  'disk-full': { message: 'The server cannot store data now: its disk is full. Nothing was written; retry later', retryAfterSeconds: 10 },
  'read-only': { message: 'The server cannot store data now: its storage is read-only. Nothing was written; retry later', retryAfterSeconds: 10 },
  'io-error': { message: 'The server cannot store data now: its storage reports I/O errors. Nothing was written; retry later', retryAfterSeconds: 10 },
  'connection-lost': { message: 'The server cannot reach its database now. Nothing was written; retry shortly', retryAfterSeconds: 2 },
};

export interface FaultState {
  fault: StoreFault;
  /** The driver's words, for operators (readiness details, logs); never sent to API clients. */
  detail: string;
  atMs: number;
}

export class StoreFaults {
  private last: FaultState | undefined;
  private lastCommitMs = 0;
  readonly counter = new Counter('waymark_store_unavailable_total', 'Requests answered 503 because the store could not take them, by fault (disk-full, read-only, io-error, connection-lost).');

  constructor(store: Store, private readonly clock: () => number = Date.now) {
    store.onCommit(() => {
      this.lastCommitMs = this.clock();
    });
  }

  /** The answer for `err` when it is a store fault (and the fault noted), else undefined. */
  answer(err: unknown): { error: StoreUnavailable; state: FaultState } | undefined {
    const fault = storeFaultOf(err);
    if (!fault) return undefined;
    const state: FaultState = { fault, detail: err instanceof Error ? err.message : String(err), atMs: this.clock() };
    this.last = state;
    this.counter.inc({ fault });
    const { message, retryAfterSeconds } = ANSWERS[fault];
    return { error: new StoreUnavailable(message, retryAfterSeconds), state };
  }

  /** The fault writes are failing with now, if any: noted within the window and no commit since. */
  failing(): FaultState | undefined {
    const last = this.last;
    if (!last || last.atMs < this.lastCommitMs || this.clock() - last.atMs > FAULT_WINDOW_MS) return undefined;
    return last;
  }
}
