// Where webhook requests are sent from. By default a thread of its own (delivery-sender-thread.ts): on the
// gateway's event loop an endpoint got about one request per turn of the loop it shared with the track
// requests, and sending (socket writes, HTTP, HMACs) was most of what delivery cost that loop (issue 31
// item 6, bench/webhooks.ts part C). The delivery worker hands the sender a batch of an endpoint's
// requests (a page of its queue, in order) and reads their outcomes one by one as they come; the sender
// stops at the first failure. Without the compiled thread file (tests run the TypeScript sources) or with
// WAYMARK_WEBHOOK_SEND_THREAD=false, the same loop runs on the event loop (InProcessSender).
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { AddressPolicy } from '../../../../core/webhooks/address-safety';
import type { Logger } from '../../../../ports/logger';
import type { OutboundHttp } from '../../../../ports/outbound-http';
import { DeliveryHeaders } from './delivery-headers';
import { deliveryClient } from './delivery-http';
import { sendInOrder, type SendBatch, type SentAttempt } from './delivery-send-run';
import type { FromSenderThread, SenderThreadData, ToSenderThread } from './delivery-sender-thread';

/** The outcomes of one batch, in order. */
export interface SendRun {
  /** The next request's outcome; undefined once the run is over (all sent, a failure, stopped, aborted, or the thread lost). */
  next(): Promise<SentAttempt | undefined>;
  /** Send nothing after the request in flight; its outcome still comes, then the run ends. */
  stop(): void;
}

export interface DeliverySender {
  start(batch: SendBatch): SendRun;
  /** Cuts every attempt in flight (shutdown): they end as aborted, and nothing more is sent. */
  abort(): void;
  close(): Promise<void>;
}

export interface SenderSettings {
  policy: AddressPolicy;
  timeoutMs: number;
  /** Send from a thread of its own (when its compiled file is there). */
  thread: boolean;
  logger: Logger;
  now?: () => number;
  /**
   * JavaScript the thread runs instead of the compiled thread file (tests, which run the TypeScript
   * sources, load that file through a transpiling hook).
   */
  threadScript?: string;
}

const THREAD_FILE = path.join(__dirname, 'delivery-sender-thread.js');

export function deliverySender(settings: SenderSettings): DeliverySender {
  if (settings.thread && fs.existsSync(THREAD_FILE)) return new ThreadSender(settings);
  return new InProcessSender(settings);
}

/** Outcomes as they arrive, read in order by one reader. */
class RunQueue implements SendRun {
  private readonly arrived: SentAttempt[] = [];
  private waiting: ((s: SentAttempt | undefined) => void) | undefined;
  ended = false;

  constructor(private readonly onStop: () => void) {}

  push(sent: SentAttempt): void {
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = undefined;
      w(sent);
    } else this.arrived.push(sent);
  }

  end(): void {
    this.ended = true;
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = undefined;
      w(undefined);
    }
  }

  next(): Promise<SentAttempt | undefined> {
    const first = this.arrived.shift();
    if (first !== undefined) return Promise.resolve(first);
    if (this.ended) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  stop(): void {
    if (!this.ended) this.onStop();
  }
}

/** The loop on the event loop it is called from. */
export class InProcessSender implements DeliverySender {
  private readonly client: OutboundHttp;
  private readonly headers = new DeliveryHeaders();
  private readonly controller = new AbortController();

  constructor(private readonly settings: SenderSettings) {
    this.client = deliveryClient(settings.policy, settings.timeoutMs);
  }

  start(batch: SendBatch): SendRun {
    let stopped = false;
    const run = new RunQueue(() => {
      stopped = true;
    });
    const ctx = { client: this.client, headers: this.headers, timeoutMs: this.settings.timeoutMs, signal: this.controller.signal, now: this.settings.now ?? Date.now };
    sendInOrder(batch, ctx, () => stopped, (sent) => run.push(sent)).then(
      () => run.end(),
      (err: unknown) => {
        this.settings.logger.error('webhook sending failed', { error: err instanceof Error ? err.message : String(err) });
        run.end();
      },
    );
    return run;
  }

  abort(): void {
    this.controller.abort(new Error('shutdown'));
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

/**
 * The main thread's side of the sender thread, started on the first batch. The thread is referenced only
 * while runs are open, so it never keeps a process alive by itself. If it dies, its open runs end (their
 * requests in flight are unknown: not recorded, so sent again) and the next batch starts a new one.
 */
export class ThreadSender implements DeliverySender {
  private worker: Worker | undefined;
  private readonly runs = new Map<number, RunQueue>();
  private nextId = 1;
  private aborted = false;

  constructor(private readonly settings: SenderSettings) {}

  start(batch: SendBatch): SendRun {
    const id = this.nextId++;
    if (this.aborted) {
      const run = new RunQueue(() => undefined);
      run.end();
      return run;
    }
    const worker = this.thread();
    const run = new RunQueue(() => this.post(worker, { type: 'stop', id }));
    this.runs.set(id, run);
    if (this.runs.size === 1) worker.ref();
    this.post(worker, { type: 'run', id, batch });
    return run;
  }

  abort(): void {
    this.aborted = true;
    if (this.worker) this.post(this.worker, { type: 'abort' });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.endAll();
    if (worker) await worker.terminate();
  }

  private post(worker: Worker, message: ToSenderThread): void {
    worker.postMessage(message);
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const data: SenderThreadData = { policy: this.settings.policy, timeoutMs: this.settings.timeoutMs };
    const script = this.settings.threadScript;
    const worker = script === undefined ? new Worker(THREAD_FILE, { workerData: data }) : new Worker(script, { eval: true, workerData: data });
    worker.unref();
    worker.on('message', (message: FromSenderThread) => {
      const run = this.runs.get(message.id);
      if (run === undefined) return;
      for (const sent of message.sent) run.push(sent);
      if (message.type === 'sent') return;
      if (message.error !== undefined) this.settings.logger.error('webhook sending failed', { error: message.error });
      this.finish(message.id, run);
    });
    const lost = (why: string): void => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.settings.logger.error('webhook sender thread stopped; a new one starts with the next request', { error: why });
      this.endAll();
    };
    worker.on('error', (err) => lost(err.message));
    worker.on('exit', (code) => lost(`exit code ${code}`));
    this.worker = worker;
    return worker;
  }

  private finish(id: number, run: RunQueue): void {
    this.runs.delete(id);
    run.end();
    if (this.runs.size === 0) this.worker?.unref();
  }

  private endAll(): void {
    for (const [id, run] of [...this.runs]) this.finish(id, run);
  }
}
