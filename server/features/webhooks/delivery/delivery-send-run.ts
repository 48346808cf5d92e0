// One run of an endpoint's requests: sent one at a time, in order, signed as each goes out, stopping at
// the first that is not acknowledged (the later ones must wait for it: strict order per endpoint), when
// told to stop, or when the sender is aborted (shutdown). Each outcome is handed on as soon as it is
// known, so the delivery worker records it (and renews its lease) while the next request is on the wire.
// The same loop runs on the sender thread (delivery-sender-thread.ts) and, without one, on the event loop.
import type { OutboundHttp } from '../../../../ports/outbound-http';
import { DeliveryHeaders, type SignedRequest } from './delivery-headers';
import { sendDelivery, type DeliveryAttempt } from './delivery-http';

export interface SendRequest extends SignedRequest {
  /** The request body, byte for byte. */
  body: string;
}

/** Requests of one endpoint to send in this order: plain data, as they cross to the sender thread. */
export interface SendBatch {
  url: string;
  /** Signing tokens, the webhook's own first (delivery-headers.ts signingTokens). */
  tokens: string[];
  requests: SendRequest[];
}

/** A request's attempt with when it began and ended (ms since the epoch). */
export interface SentAttempt {
  attempt: DeliveryAttempt;
  startedMs: number;
  endedMs: number;
}

export interface RunContext {
  client: OutboundHttp;
  headers: DeliveryHeaders;
  timeoutMs: number;
  signal: AbortSignal;
  now: () => number;
}

/** Sends the batch's requests in order; `stopped` is asked before each; `sent` gets each outcome. */
export async function sendInOrder(batch: SendBatch, ctx: RunContext, stopped: () => boolean, sent: (s: SentAttempt) => void): Promise<void> {
  for (const request of batch.requests) {
    if (stopped() || ctx.signal.aborted) return;
    const startedMs = ctx.now();
    const attempt = await sendDelivery(
      { url: batch.url, body: request.body, headers: ctx.headers.for(batch.tokens, request, request.body, new Date(startedMs)) },
      { timeoutMs: ctx.timeoutMs, client: ctx.client, signal: ctx.signal },
    );
    sent({ attempt, startedMs, endedMs: ctx.now() });
    if (!attempt.ok) return;
  }
}
