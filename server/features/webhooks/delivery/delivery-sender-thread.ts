// The sender thread's entry (delivery-sender.ts starts it): webhook requests are signed and sent here,
// on an event loop of their own, so that a receiver's answer is read as soon as it comes and not after
// the track requests queued on the gateway's event loop, and the sockets' writes, TLS, HTTP parsing and
// HMACs cost the gateway's event loop nothing. The thread holds no state of the queue: it is handed a
// batch (one endpoint's requests, in order) and reports each outcome; the delivery worker on the main
// thread decides and writes everything (leases, outcomes, retries).
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
/** To the main thread: an outcome of a run, its end (after which nothing more of it is sent). */
export type FromSenderThread = { type: 'sent'; id: number; sent: SentAttempt } | { type: 'end'; id: number; error?: string };

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
      sendInOrder(batch, ctx, () => stopped.has(id), (sent) => post({ type: 'sent', id, sent })).then(
        () => post({ type: 'end', id }),
        (err: unknown) => post({ type: 'end', id, error: err instanceof Error ? err.message : String(err) }),
      ).finally(() => {
        running.delete(id);
        stopped.delete(id);
      });
    }
  });
}

if (parentPort) serve(parentPort, workerData as SenderThreadData);
