// One webhook POST: checked addresses only, one deadline for the whole attempt (DNS, connect, redirects,
// response), a bounded read of the response, and 307/308 redirects followed only to addresses the
// policy allows. Other redirects are not followed: 301/302/303 would turn the POST into a GET.
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { AddressPolicy } from '../engine/webhooks/address-safety';
import { parseRetryAfter } from '../engine/webhooks/retry-policy';
import { parseWebhookUrl } from '../engine/webhooks/webhook-url';
import { RefusedAddress, resolveDeliveryAddresses, type CheckedAddress } from './delivery-dns';

export interface DeliveryRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
}

export interface DeliveryOptions {
  timeoutMs: number;
  policy: AddressPolicy;
  agents: DeliveryAgents;
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

export interface DeliveryAgents {
  http: http.Agent;
  https: https.Agent;
  destroy(): void;
}

/** Keep-alive agents: one receiver getting a stream of events should not pay a handshake per request. */
export function deliveryAgents(): DeliveryAgents {
  const options = { keepAlive: true, maxSockets: 8, maxFreeSockets: 8, scheduling: 'lifo' as const };
  const agents = { http: new http.Agent(options), https: new https.Agent(options) };
  return { ...agents, destroy: () => { agents.http.destroy(); agents.https.destroy(); } };
}

const DEFAULT_MAX_REDIRECTS = 3;
const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024;
const FOLLOWED_REDIRECTS = new Set([307, 308]);

class DeadlineExceeded extends Error {}

interface HopResult {
  status: number;
  location?: string;
  retryAfter?: string;
}

function pinnedLookup(addresses: CheckedAddress[]): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options.all) callback(null, addresses.map((a) => ({ address: a.address, family: a.family })));
    else callback(null, addresses[0].address, addresses[0].family);
  }) as unknown as LookupFunction; // Node's LookupFunction is an overload set no single arrow satisfies.
}

function oneHop(url: string, addresses: CheckedAddress[], body: string, headers: Record<string, string>, opts: DeliveryOptions, signal: AbortSignal): Promise<HopResult> {
  const target = new URL(url);
  const secure = target.protocol === 'https:';
  const maxBytes = opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  return new Promise<HopResult>((resolve, reject) => {
    const request = (secure ? https : http).request(
      target,
      {
        method: 'POST',
        agent: secure ? opts.agents.https : opts.agents.http,
        lookup: pinnedLookup(addresses),
        headers,
        signal,
      },
      (res) => {
        let received = 0;
        const done = (): void => resolve({
          status: res.statusCode ?? 0,
          location: typeof res.headers.location === 'string' ? res.headers.location : undefined,
          retryAfter: typeof res.headers['retry-after'] === 'string' ? res.headers['retry-after'] : undefined,
        });
        res.on('data', (chunk: Buffer) => {
          received += chunk.length;
          // The status is all we need; a receiver streaming a huge (or endless) body is cut off.
          if (received > maxBytes) {
            res.destroy();
            done();
          }
        });
        res.on('end', done);
        res.on('error', done);
        res.on('close', done);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

function describeError(err: unknown, timeoutMs: number): string {
  if (err instanceof DeadlineExceeded) return `timeout after ${timeoutMs} ms`;
  if (err instanceof RefusedAddress) return err.message;
  const e = err as NodeJS.ErrnoException;
  if (e instanceof Error && e.code && !e.message.includes(e.code)) return `${e.code}: ${e.message}`;
  return err instanceof Error ? err.message : String(err);
}

export async function sendDelivery(req: DeliveryRequest, opts: DeliveryOptions): Promise<DeliveryAttempt> {
  if (opts.signal?.aborted) return { ok: false, latencyMs: 0, error: 'aborted (shutdown)', aborted: true };
  const started = process.hrtime.bigint();
  const elapsed = (): number => Math.round(Number(process.hrtime.bigint() - started) / 1e5) / 10;
  const controller = new AbortController();
  // Made only when the deadline passes: an Error captures a stack trace, and nearly every attempt ends in time.
  const timer = setTimeout(() => controller.abort(new DeadlineExceeded('timeout')), opts.timeoutMs);
  const headers = { ...req.headers, 'content-length': String(Buffer.byteLength(req.body)) };
  const onOuterAbort = (): void => controller.abort(opts.signal?.reason);
  opts.signal?.addEventListener('abort', onOuterAbort, { once: true });
  const aborted = new Promise<never>((_, reject) => {
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
  });
  aborted.catch(() => undefined);
  try {
    let url = req.url;
    for (let hop = 0; ; hop++) {
      const parsed = parseWebhookUrl(url);
      if (!parsed.ok) return { ok: false, latencyMs: elapsed(), error: `redirect to an invalid URL: ${parsed.message}` };
      const addresses = await Promise.race([resolveDeliveryAddresses(parsed.target, opts.policy), aborted]);
      const result = await oneHop(parsed.target.href, addresses, req.body, headers, opts, controller.signal);
      if (FOLLOWED_REDIRECTS.has(result.status) && result.location !== undefined) {
        if (hop >= (opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS)) {
          return { ok: false, status: result.status, latencyMs: elapsed(), error: `too many redirects (last to ${result.location})` };
        }
        url = new URL(result.location, url).href;
        continue;
      }
      const ok = result.status >= 200 && result.status < 300;
      const attempt: DeliveryAttempt = { ok, status: result.status, latencyMs: elapsed() };
      if (!ok) {
        attempt.error = result.status >= 300 && result.status < 400
          ? `redirect (${result.status}) not followed: deliveries follow only 307 and 308`
          : `receiver answered ${result.status}`;
        if (result.status === 429 || result.status === 503) attempt.retryAfterMs = parseRetryAfter(result.retryAfter, new Date());
      }
      return attempt;
    }
  } catch (err) {
    const cause = controller.signal.aborted ? controller.signal.reason : err;
    if (controller.signal.aborted && !(cause instanceof DeadlineExceeded)) return { ok: false, latencyMs: elapsed(), error: 'aborted (shutdown)', aborted: true };
    return { ok: false, latencyMs: elapsed(), error: describeError(cause, opts.timeoutMs) };
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onOuterAbort);
  }
}
