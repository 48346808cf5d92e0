// One webhook POST through the checked outbound connector (adapters/outbound-http): the receiver's
// deadline starts when the request is on the wire (resolving its host and connecting are bounded apart,
// by the same duration), at most 64 KiB of the answer is read, and 307/308 redirects are followed to
// addresses the policy allows. Other redirects are not followed: 301/302/303 would turn the POST into a GET.
import { CheckedHttp } from '../../../../adapters/outbound-http/checked-http';
import type { Resolver } from '../../../../adapters/outbound-http/checked-addresses';
import { OutboundFailure, type OutboundHttp, type SendOptions } from '../../../../ports/outbound-http';
import type { AddressPolicy } from '../../../../core/webhooks/address-safety';
import { parseRetryAfter } from '../../../../core/webhooks/retry-policy';
import { webhookAddressGuard } from './delivery-guard';

export interface DeliveryRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
}

export interface DeliveryOptions {
  timeoutMs: number;
  client: OutboundHttp;
  /** Aborts the attempt (shutdown); the result then says aborted and nothing about the receiver. */
  signal?: AbortSignal;
  maxRedirects?: number;
  /** Response bytes read at most; the rest is dropped with the connection. */
  maxResponseBytes?: number;
}

export interface DeliveryAttempt {
  ok: boolean;
  /** Final HTTP status; undefined when no response came. */
  status?: number;
  latencyMs: number;
  error?: string;
  retryAfterMs?: number;
  /** The attempt was cut short by the caller; not the receiver's doing. */
  aborted?: boolean;
}

/**
 * The connector deliveries go through, with the webhook address policy. Its connect timeout is the
 * attempt's timeout: a receiver gets its whole deadline once the request is on the wire.
 */
export function deliveryClient(policy: AddressPolicy, timeoutMs: number, resolve?: Resolver): OutboundHttp {
  return new CheckedHttp({ guard: webhookAddressGuard(policy), connectTimeoutMs: timeoutMs, resolve });
}

const DEFAULT_MAX_REDIRECTS = 3;
const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024;
const FOLLOWED_REDIRECTS: ReadonlySet<number> = new Set([307, 308]);

function failureText(err: OutboundFailure): string {
  if (err.kind === 'bad-url') return `redirect to an invalid URL: ${err.message}`;
  return err.message;
}

export async function sendDelivery(req: DeliveryRequest, opts: DeliveryOptions): Promise<DeliveryAttempt> {
  const options: SendOptions = {
    timeoutMs: opts.timeoutMs, deadlineFrom: 'wire', maxResponseBytes: opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES, overLimit: 'cut',
    redirects: { follow: FOLLOWED_REDIRECTS, max: opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS }, credentials: 'basic', keepAlive: true, signal: opts.signal,
  };
  try {
    const answer = await opts.client.send({ url: req.url, method: 'POST', headers: req.headers, body: req.body }, options);
    const ok = answer.status >= 200 && answer.status < 300;
    const attempt: DeliveryAttempt = { ok, status: answer.status, latencyMs: answer.latencyMs };
    if (!ok) {
      attempt.error = answer.status >= 300 && answer.status < 400
        ? `redirect (${answer.status}) not followed: deliveries follow only 307 and 308`
        : `receiver answered ${answer.status}`;
      if (answer.status === 429 || answer.status === 503) attempt.retryAfterMs = parseRetryAfter(answer.retryAfter, new Date());
    }
    return attempt;
  } catch (err) {
    if (!(err instanceof OutboundFailure)) throw err;
    const latencyMs = err.details.latencyMs ?? 0;
    if (err.kind === 'aborted') return { ok: false, latencyMs, error: 'aborted (shutdown)', aborted: true };
    const attempt: DeliveryAttempt = { ok: false, latencyMs, error: failureText(err) };
    if (err.kind === 'too-many-redirects') attempt.status = err.details.status;
    return attempt;
  }
}
