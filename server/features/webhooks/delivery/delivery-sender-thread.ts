// The sender thread's entry (delivery-sender.ts starts it): webhook requests are signed and sent here,
// on an event loop of their own, so that a receiver's answer is read as soon as it comes and not after
// the track requests queued on the gateway's event loop, and the sockets' writes, TLS, HTTP parsing and
// HMACs cost the gateway's event loop nothing. The thread holds no state of the queue: it is handed a
// batch (one endpoint's requests, in order) and reports each outcome; the delivery worker on the main
// thread decides and writes everything (leases, outcomes, retries).
//
// Outcomes go back in groups: a message each cost both threads about as much as the request's own HTTP
// work (a message posted, the main thread woken, the message read). A delivered request's outcome waits
// up to GROUP_MS for the ones after it; a failure, whose run ends there, goes at once with the end.
import { parentPort, workerData } from 'node:worker_threads';
import type { AddressPolicy } from '../../../../core/webhooks/address-safety';
import { DeliveryHeaders } from './delivery-headers';
import { deliveryClient } from './delivery-http';
import { sendInOrder, type SendBatch, type SentAttempt } from './delivery-send-run';

export interface SenderThreadData {
  policy: AddressPolicy;
  timeoutMs: number;
}

/** From the main thread: start a run, stop one after its request in flight, abort everything (shutdown). */
export type ToSenderThread = { type: 'run'; id: number; batch: SendBatch } | { type: 'stop'; id: number } | { type: 'abort' };
/**
 * To the main thread: outcomes of a run, in order; its end, with the outcomes not reported yet (after
 * which nothing more of it is sent).
 */
export type FromSenderThread = { type: 'sent'; id: number; sent: SentAttempt[] } | { type: 'end'; id: number; sent: SentAttempt[]; error?: string };

/**
 * How long a delivered request's outcome may wait for the next ones (ms). The worker renews the
 * endpoint's lease and writes outcomes as they reach it (delivery-endpoint-writes.ts groups them for
 * 200 ms): this bounds how much later that happens.
 */
const GROUP_MS = 20;

function serve(port: NonNullable<typeof parentPort>, data: SenderThreadData): void {
  const client = deliveryClient(data.policy, data.timeoutMs);
  const headers = new DeliveryHeaders();
  const controller = new AbortController();
  const running = new Set<number>();
  const stopped = new Set<number>();
  const post = (message: FromSenderThread): void => port.postMessage(message);
  port.on('message', (message: ToSenderThread) => {
    if (message.type === 'abort') controller.abort(new Error('shutdown'));
    else if (message.type === 'stop') {
      if (running.has(message.id)) stopped.add(message.id);
    } else {
      const { id, batch } = message;
      running.add(id);
      const ctx = { client, headers, timeoutMs: data.timeoutMs, signal: controller.signal, now: Date.now };
      let held: SentAttempt[] = [];
      let timer: NodeJS.Timeout | undefined;
      const take = (): SentAttempt[] => {
        if (timer !== undefined) clearTimeout(timer);
        timer = undefined;
        const out = held;
        held = [];
        return out;
      };
      const hold = (sent: SentAttempt): void => {
        held.push(sent);
        timer ??= setTimeout(() => {
          timer = undefined;
          post({ type: 'sent', id, sent: take() });
        }, GROUP_MS);
      };
      sendInOrder(batch, ctx, () => stopped.has(id), hold).then(
        () => post({ type: 'end', id, sent: take() }),
        (err: unknown) => post({ type: 'end', id, sent: take(), error: err instanceof Error ? err.message : String(err) }),
      ).finally(() => {
        running.delete(id);
        stopped.delete(id);
      });
    }
  });
}

if (parentPort) serve(parentPort, workerData as SenderThreadData);
