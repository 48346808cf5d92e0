// The headers of one delivery request: Radar's signature over a fresh signing id, Waymark's over the
// timestamp and body (with every token still valid, so receivers can rotate), and the request's ids.
// Built where the request is sent (the sender thread, delivery-sender-thread.ts), from plain data.
import type { WebhookDoc } from '../webhook-docs';
import { radarSignature, waymarkSignatureHeader } from '../../../../core/webhooks/signature';
import { RandomHex } from './random-hex';

const USER_AGENT = 'Waymark-Webhooks/1';

/** What the headers say of a request besides its body. */
export interface SignedRequest {
  /** X-Waymark-Delivery-Id: the row's id, or the bundle's with the part's place. */
  deliveryId: string;
  /** X-Waymark-Attempt, from 1. */
  attempt: number;
  eventIds: readonly string[];
}

/**
 * The tokens that sign a webhook's requests at `now`: its token first (Radar's signature uses only it),
 * then the previous one while its grace period runs.
 */
export function signingTokens(webhook: WebhookDoc, now: Date): string[] {
  const tokens = [webhook.token];
  if (webhook._previousToken && webhook._previousTokenUntil && Date.parse(webhook._previousTokenUntil) > now.getTime()) tokens.push(webhook._previousToken);
  return tokens;
}

export class DeliveryHeaders {
  private readonly signingIds = new RandomHex();

  for(tokens: readonly string[], request: SignedRequest, body: string, now: Date): Record<string, string> {
    const signingId = this.signingIds.next(12);
    const timestamp = Math.floor(now.getTime() / 1000);
    return {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'x-radar-signing-id': signingId,
      'x-radar-signature': radarSignature(tokens[0], signingId),
      'x-waymark-timestamp': String(timestamp),
      'x-waymark-signature': waymarkSignatureHeader(tokens, timestamp, body),
      'x-waymark-delivery-id': request.deliveryId,
      'x-waymark-attempt': String(request.attempt),
      'x-waymark-event-ids': request.eventIds.join(','),
    };
  }
}
