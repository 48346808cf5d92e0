// One webhook POST: checked addresses only (every connection is checked as it is opened), one deadline
// for the whole attempt (DNS, connect, redirects, response), a bounded read of the response, and 307/308
// redirects followed only to addresses the policy allows. Other redirects are not followed: 301/302/303
// would turn the POST into a GET.
import type { LookupFunction } from 'node:net';
import { Agent, buildConnector, type Dispatcher } from 'undici';
import { isIpLiteral, type AddressPolicy } from '../engine/webhooks/address-safety';
import { parseRetryAfter } from '../engine/webhooks/retry-policy';
import { parseWebhookUrl, type WebhookTarget } from '../engine/webhooks/webhook-url';
import { RefusedAddress, resolveDeliveryAddresses } from './delivery-dns';

export interface DeliveryRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
}

export interface DeliveryOptions {
  timeoutMs: number;
  policy: AddressPolicy;
  client: DeliveryClient;
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

export interface DeliveryClient {
  dispatcher: Dispatcher;
  destroy(): Promise<void>;
}

function targetOf(host: string): WebhookTarget {
  return { href: '', protocol: 'http:', host, port: 0, literal: isIpLiteral(host) };
}

/** Host names resolve to the addresses the policy allows, or fail with the refusal. */
function checkedLookup(policy: AddressPolicy): LookupFunction {
  return ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    resolveDeliveryAddresses(targetOf(hostname), policy).then(
      (addresses) => {
        if (options.all) callback(null, addresses.map((a) => ({ address: a.address, family: a.family })));
        else callback(null, addresses[0].address, addresses[0].family);
      },
      (err: unknown) => callback(err),
    );
  }) as unknown as LookupFunction; // Node's LookupFunction is an overload set no single arrow satisfies.
}

/**
 * Every connection the pool opens is checked against the policy when it is opened: an IP literal here,
 * a host name through the lookup the socket connects with (each resolved address checked, the socket
 * given those only), so a DNS answer that changes between the attempt's own check and the connection
 * cannot steer it to a refused address. Redirect targets are new origins and get new, checked connections.
 */
function checkedConnector(policy: AddressPolicy, timeoutMs: number): buildConnector.connector {
  const connect = buildConnector({ lookup: checkedLookup(policy), timeout: timeoutMs });
  return (options, callback) => {
    if (!isIpLiteral(options.hostname)) {
      connect(options, callback);
      return;
    }
    resolveDeliveryAddresses(targetOf(options.hostname), policy).then(
      () => connect(options, callback),
      (err: Error) => callback(err, null),
    );
  };
}

/**
 * Keep-alive connections per receiver: a stream of events to one receiver should not pay a handshake
 * per request. undici's pool rather than node:http's agent: a request through it costs about half the
 * CPU of a ClientRequest. A connection still being made when the attempt's deadline passes is given up
 * at the same deadline (`timeoutMs`).
 */
export function deliveryClient(policy: AddressPolicy, timeoutMs: number): DeliveryClient {
  const dispatcher = new Agent({ connect: checkedConnector(policy, timeoutMs), connections: 8, pipelining: 1 });
  return { dispatcher, destroy: () => dispatcher.destroy() };
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

function headerText(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Where one hop goes: the checked target, and the origin and path the request is dispatched with. */
interface Hop {
  target: WebhookTarget;
  origin: string;
  path: string;
}

/**
 * Hops by URL text: every attempt to an endpoint would otherwise run the same URL through the WHATWG
 * parser twice and its host through the IP-literal check. Parsing is a pure function of the text.
 */
const knownHops = new Map<string, Hop | string>();
const MAX_HOPS_REMEMBERED = 1024;

/** The hop for a URL, or why it is not a webhook URL. */
function hopFor(url: string): Hop | string {
  let hop = knownHops.get(url);
  if (hop === undefined) {
    const parsed = parseWebhookUrl(url);
    if (parsed.ok) {
      const u = new URL(parsed.target.href);
      hop = { target: parsed.target, origin: u.origin, path: `${u.pathname}${u.search}` };
    } else {
      hop = parsed.message;
    }
    if (knownHops.size >= MAX_HOPS_REMEMBERED) knownHops.clear();
    knownHops.set(url, hop);
  }
  return hop;
}

function oneHop(hop: Hop, body: string, headers: Record<string, string>, opts: DeliveryOptions, cut: AttemptCut): Promise<HopResult> {
  const maxBytes = opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  return new Promise<HopResult>((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    let result: HopResult | undefined;
    let received = 0;
    let settled = false;
    const settle = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      cut.onCut = undefined;
      outcome();
    };
    // The attempt's end (deadline or shutdown) frees the connection; the caller's race answers.
    cut.onCut = (reason) => controller?.abort(reason as Error);
    opts.client.dispatcher.dispatch(
      { origin: hop.origin, path: hop.path, method: 'POST', headers, body },
      {
        onRequestStart(c) {
          controller = c;
          if (cut.done) c.abort(cut.reason as Error);
        },
        onResponseStart(_c, statusCode, responseHeaders) {
          result = { status: statusCode, location: headerText(responseHeaders.location), retryAfter: headerText(responseHeaders['retry-after']) };
        },
        onResponseData(c, chunk) {
          received += chunk.length;
          // The status is all we need; a receiver streaming a huge (or endless) body is cut off.
          if (received > maxBytes && result) {
            const r = result;
            settle(() => resolve(r));
            c.abort(new Error('response body over the limit'));
          }
        },
        onResponseEnd() {
          const r = result ?? { status: 0 };
          settle(() => resolve(r));
        },
        onResponseError(_c, err) {
          // Once the status arrived, a body cut short does not change the answer.
          const r = result;
          settle(() => (r ? resolve(r) : reject(err)));
        },
      },
    );
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
  const cut = new AttemptCut();
  // Made only when the deadline passes: an Error captures a stack trace, and nearly every attempt ends in time.
  const timer = setTimeout(() => cut.end(new DeadlineExceeded('timeout')), opts.timeoutMs);
  const unwatch = opts.signal ? watchShutdown(opts.signal, cut) : undefined;
  const headers = { ...req.headers, 'content-length': String(Buffer.byteLength(req.body)) };
  try {
    let url = req.url;
    for (let hops = 0; ; hops++) {
      const hop = hopFor(url);
      if (typeof hop === 'string') return { ok: false, latencyMs: elapsed(), error: `redirect to an invalid URL: ${hop}` };
      await cut.race(resolveDeliveryAddresses(hop.target, opts.policy));
      // Raced with the deadline: a request waiting for its connection cannot be aborted until it has one.
      const result = await cut.race(oneHop(hop, req.body, headers, opts, cut));
      if (FOLLOWED_REDIRECTS.has(result.status) && result.location !== undefined) {
        if (hops >= (opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS)) {
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
    const cause = cut.done ? cut.reason : err;
    if (cut.done && !(cause instanceof DeadlineExceeded)) return { ok: false, latencyMs: elapsed(), error: 'aborted (shutdown)', aborted: true };
    return { ok: false, latencyMs: elapsed(), error: describeError(cause, opts.timeoutMs) };
  } finally {
    clearTimeout(timer);
    unwatch?.();
  }
}

/**
 * How an attempt ends early: its deadline or the worker's shutdown, whichever comes first, told to the
 * step waiting then (`race`) and to the request on the wire (`onCut`). An AbortController per attempt,
 * with its EventTarget listeners added and removed, cost ~6 µs where this costs ~0.6 (a micro-benchmark
 * of both shapes), and nearly every attempt ends in time.
 */
class AttemptCut {
  done = false;
  reason: unknown;
  /** Aborts the request on the wire, while there is one. */
  onCut: ((reason: unknown) => void) | undefined;
  private waiting: ((reason: unknown) => void) | undefined;

  end(reason: unknown): void {
    if (this.done) return;
    this.done = true;
    this.reason = reason;
    this.onCut?.(reason);
    this.waiting?.(reason);
  }

  /** `step`'s outcome, or a rejection with the reason as soon as the attempt ends. */
  race<T>(step: Promise<T>): Promise<T> {
    if (this.done) {
      step.catch(() => undefined);
      return Promise.reject(this.reason);
    }
    return new Promise<T>((resolve, reject) => {
      this.waiting = reject;
      step.then(
        (value) => {
          this.waiting = undefined;
          resolve(value);
        },
        (err: unknown) => {
          this.waiting = undefined;
          reject(err);
        },
      );
    });
  }
}

/** The attempts in flight under each shutdown signal: one listener per signal, not one per attempt. */
const attemptsBySignal = new WeakMap<AbortSignal, Set<AttemptCut>>();

/** Ends `cut` when `signal` aborts; returns the attempt's removal, for when it ends on its own. */
function watchShutdown(signal: AbortSignal, cut: AttemptCut): () => void {
  let attempts = attemptsBySignal.get(signal);
  if (attempts === undefined) {
    const live = new Set<AttemptCut>();
    signal.addEventListener('abort', () => {
      for (const attempt of live) attempt.end(signal.reason);
    }, { once: true });
    attemptsBySignal.set(signal, live);
    attempts = live;
  }
  const live = attempts;
  live.add(cut);
  return () => live.delete(cut);
}
