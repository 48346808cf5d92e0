// The headers of one delivery request: Radar's signature over a fresh signing id, Waymark's over the
// timestamp and body (with every token still valid, so receivers can rotate), and the request's ids.
import type { QueuedRequest } from '../outbox-bundle';
import { deliveryIdOf } from '../outbox-bundle';
import type { WebhookDoc } from '../webhook-docs';
import { radarSignature, waymarkSignatureHeader } from '../../../../core/webhooks/signature';
import { RandomHex } from './random-hex';

const USER_AGENT = 'Waymark-Webhooks/1';

export class DeliveryHeaders {
  private readonly signingIds = new RandomHex();

  for(webhook: WebhookDoc, request: QueuedRequest, body: string, now: Date): Record<string, string> {
    const { row } = request;
    const signingId = this.signingIds.next(12);
    const timestamp = Math.floor(now.getTime() / 1000);
    const tokens = [webhook.token];
    if (webhook._previousToken && webhook._previousTokenUntil && Date.parse(webhook._previousTokenUntil) > now.getTime()) tokens.push(webhook._previousToken);
    return {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'x-radar-signing-id': signingId,
      'x-radar-signature': radarSignature(webhook.token, signingId),
      'x-waymark-timestamp': String(timestamp),
      'x-waymark-signature': waymarkSignatureHeader(tokens, timestamp, body),
      'x-waymark-delivery-id': deliveryIdOf(request),
      'x-waymark-attempt': String(row.attempts + 1),
      'x-waymark-event-ids': row.eventIds.join(','),
    };
  }
}
