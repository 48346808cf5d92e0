// The checked outbound HTTP connector (ports/outbound-http.ts) on undici: used by webhook delivery and by the
// geofence sync's downloads.
//
// - Every connection is checked against the guard as it is opened: an IP literal as it is, a host name
//   through the lookup the socket connects with (each resolved address checked, the socket given those
//   only). A DNS answer that changes after an earlier check cannot steer a connection elsewhere, and a
//   kept-alive connection was checked when it was opened. Redirect targets are new origins and get new,
//   checked connections.
// - No request waits for a connection another request holds: the pool opens as many connections to an
//   origin as there are requests in flight to it (callers bound how many that is: the delivery worker
//   has one request in flight per endpoint). With a shared limit per origin, twenty slow receivers on
//   one host kept every other webhook on that host waiting, and the wait counted against their deadline.
// - The deadline can start when the request is on the wire (`deadlineFrom: 'wire'`): name resolution and
//   the connection are bounded apart, by the connector's connect timeout.
import type { LookupFunction } from 'node:net';
import net from 'node:net';
import { Agent, buildConnector, type Dispatcher } from 'undici';
import { AttemptCut, watchShutdown } from './attempt-cut';
import { bareHost, checkedAddresses, systemResolver, type Resolver } from './checked-addresses';
import { OutboundFailure, type AddressGuard, type OutboundHttp, type OutboundRequest, type OutboundResponse, type SendOptions } from '../../ports/outbound-http';

export interface CheckedHttpOptions {
  guard: AddressGuard;
  /** Bound on resolving a host and opening a connection to it, ms. */
  connectTimeoutMs: number;
  /** Name resolution; the system resolver unless a test stands in for DNS. */
  resolve?: Resolver;
}

/** Host names resolve to the addresses the guard allows, or fail with the refusal. */
function checkedLookup(guard: AddressGuard, resolve: Resolver): LookupFunction {
  return ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    checkedAddresses(hostname, guard, resolve).then(
      (addresses) => {
        if (options.all) callback(null, addresses.map((a) => ({ address: a.address, family: a.family })));
        else callback(null, addresses[0].address, addresses[0].family);
      },
      (err: unknown) => callback(err),
    );
  }) as unknown as LookupFunction; // Node's LookupFunction is an overload set no single arrow satisfies.
}

function checkedConnector(guard: AddressGuard, resolve: Resolver, timeoutMs: number): buildConnector.connector {
  const connect = buildConnector({ lookup: checkedLookup(guard, resolve), timeout: timeoutMs });
  return (options, callback) => {
    const host = bareHost(options.hostname);
    if (net.isIP(host) !== 0) {
      const reason = guard.refuseAddress(host);
      if (reason !== undefined) {
        callback(new OutboundFailure('refused', `refused: ${reason}`, { host, reason }), null);
        return;
      }
    }
    connect(options, callback);
  };
}

/** Where one hop goes: the origin and path it is dispatched with, and Basic credentials from the URL. */
interface Hop {
  origin: string;
  path: string;
  authorization?: string;
}

const MAX_HOPS_REMEMBERED = 1024;

function describeError(err: unknown): string {
  // Duck-typed: errors may come from another realm (a vm context, a test runner).
  const e = (typeof err === 'object' && err !== null ? err : {}) as Partial<NodeJS.ErrnoException> & { errors?: unknown[] };
  // Node tries each resolved address in turn and reports all failures together.
  if (Array.isArray(e.errors) && e.errors.length > 0 && !e.message) return describeError(e.errors[0]);
  if (typeof e.message !== 'string') return String(err);
  return e.code && !e.message.includes(e.code) ? `${e.code}: ${e.message}` : e.message;
}

function headerText(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

type HopResult = Omit<OutboundResponse, 'url' | 'latencyMs'>;

export class CheckedHttp implements OutboundHttp {
  private readonly dispatcher: Dispatcher;
  /**
   * Hops by URL text: every attempt to an endpoint would otherwise run the same URL through the WHATWG
   * parser. Parsing is a pure function of the text and the credentials rule.
   */
  private readonly hops = new Map<string, Hop | OutboundFailure>();

  constructor(private readonly options: CheckedHttpOptions) {
    // `connections` unset: no limit per origin (see the top of this file). pipelining 1: a slow answer
    // never holds a request queued behind it on the same connection.
    this.dispatcher = new Agent({ connect: checkedConnector(options.guard, options.resolve ?? systemResolver, options.connectTimeoutMs), pipelining: 1 });
  }

  close(): Promise<void> {
    return this.dispatcher.destroy();
  }

  private hopFor(text: string, credentials: SendOptions['credentials']): Hop | OutboundFailure {
    const key = `${credentials} ${text}`;
    let hop = this.hops.get(key);
    if (hop === undefined) {
      hop = parseHop(text, credentials);
      if (this.hops.size >= MAX_HOPS_REMEMBERED) this.hops.clear();
      this.hops.set(key, hop);
    }
    return hop;
  }

  async send(request: OutboundRequest, o: SendOptions): Promise<OutboundResponse> {
    const started = process.hrtime.bigint();
    const elapsed = (): number => Math.round(Number(process.hrtime.bigint() - started) / 1e5) / 10;
    if (o.signal?.aborted) throw new OutboundFailure('aborted', 'aborted (shutdown)', { latencyMs: 0 });
    const cut = new AttemptCut();
    let deadline: NodeJS.Timeout | undefined;
    let preWire: NodeJS.Timeout | undefined;
    // Made only when a limit passes: an Error captures a stack trace, and nearly every attempt ends in time.
    const startDeadline = (): void => {
      deadline = setTimeout(() => cut.end(new OutboundFailure('timeout', `timeout after ${o.timeoutMs} ms`, { timeoutMs: o.timeoutMs })), o.timeoutMs);
    };
    const connectMs = this.options.connectTimeoutMs;
    if (o.deadlineFrom === 'start') startDeadline();
    else preWire = setTimeout(() => cut.end(new OutboundFailure('connect-timeout', `no connection within ${connectMs} ms`, { timeoutMs: connectMs })), connectMs);
    const onWire = (): void => {
      if (deadline !== undefined) return;
      clearTimeout(preWire);
      startDeadline();
    };
    const unwatch = o.signal ? watchShutdown(o.signal, cut) : undefined;
    try {
      let url = request.url;
      for (let hops = 0; ; hops++) {
        const hop = this.hopFor(url, o.credentials);
        if (hop instanceof OutboundFailure) throw hop;
        const result = await cut.race(this.oneHop(hop, request, o, cut, onWire));
        if (o.redirects.follow.has(result.status) && result.location !== undefined) {
          if (hops >= o.redirects.max) {
            throw new OutboundFailure('too-many-redirects', `too many redirects (last to ${result.location})`, { status: result.status, location: result.location, url });
          }
          try {
            url = new URL(result.location, url).href;
          } catch {
            throw new OutboundFailure('bad-url', 'redirected to an invalid URL', { url, location: result.location });
          }
          continue;
        }
        return { ...result, url, latencyMs: elapsed() };
      }
    } catch (err) {
      const cause = cut.done ? cut.reason : err;
      if (cause instanceof OutboundFailure) {
        Object.assign(cause.details, { latencyMs: elapsed() });
        throw cause;
      }
      if (cut.done) throw new OutboundFailure('aborted', 'aborted (shutdown)', { latencyMs: elapsed() });
      throw new OutboundFailure('network', describeError(err), { latencyMs: elapsed() });
    } finally {
      clearTimeout(deadline);
      clearTimeout(preWire);
      unwatch?.();
    }
  }

  private oneHop(hop: Hop, request: OutboundRequest, o: SendOptions, cut: AttemptCut, onWire: () => void): Promise<HopResult> {
    const headers: Record<string, string> = { ...request.headers };
    if (hop.authorization !== undefined && headers.authorization === undefined) headers.authorization = hop.authorization;
    if (request.body !== undefined) headers['content-length'] = String(Buffer.byteLength(request.body));
    const where = `${hop.origin}${hop.path.replace(/\?.*$/, '')}`;
    return new Promise<HopResult>((resolve, reject) => {
      let controller: Dispatcher.DispatchController | undefined;
      let result: HopResult | undefined;
      let redirecting = false;
      const chunks: Buffer[] = [];
      let received = 0;
      let settled = false;
      const settle = (outcome: () => void): void => {
        if (settled) return;
        settled = true;
        cut.onCut = undefined;
        outcome();
      };
      const answer = (): HopResult => ({ ...result!, body: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, Math.min(received, o.maxResponseBytes)) });
      // The attempt's end (deadline or shutdown) frees the connection; the caller's race answers.
      cut.onCut = (reason) => controller?.abort(reason as Error);
      this.dispatcher.dispatch(
        { origin: hop.origin, path: hop.path, method: request.method, headers, body: request.body, reset: !o.keepAlive },
        {
          onRequestStart(c) {
            controller = c;
            if (cut.done) {
              c.abort(cut.reason as Error);
              return;
            }
            // A connection carries the request now: from here on the receiver's time runs.
            onWire();
          },
          onResponseStart(c, statusCode, responseHeaders, statusMessage) {
            result = {
              status: statusCode, statusText: statusMessage ?? '', location: headerText(responseHeaders.location),
              retryAfter: headerText(responseHeaders['retry-after']), body: Buffer.alloc(0), truncated: false,
            };
            redirecting = o.redirects.follow.has(statusCode) && result.location !== undefined;
            const declared = Number(headerText(responseHeaders['content-length']));
            if (o.overLimit === 'fail' && !redirecting && Number.isFinite(declared) && declared > o.maxResponseBytes) {
              settle(() => reject(new OutboundFailure('too-large', `${where} is ${declared} bytes, larger than the limit of ${o.maxResponseBytes} bytes`, { declaredBytes: declared, url: where })));
              c.abort(new Error('response body over the limit'));
            }
          },
          onResponseData(c, chunk) {
            if (redirecting || settled) return;
            const room = o.maxResponseBytes - received;
            received += chunk.length;
            if (room > 0) chunks.push(chunk.length <= room ? chunk : chunk.subarray(0, room));
            if (received <= o.maxResponseBytes) return;
            // A receiver streaming a huge (or endless) body is cut off.
            if (o.overLimit === 'cut') {
              result!.truncated = true;
              settle(() => resolve(answer()));
            } else {
              settle(() => reject(new OutboundFailure('too-large', `${where} is larger than the limit of ${o.maxResponseBytes} bytes`, { url: where })));
            }
            c.abort(new Error('response body over the limit'));
          },
          onResponseEnd() {
            if (result === undefined) settle(() => reject(new OutboundFailure('network', 'no response')));
            else settle(() => resolve(answer()));
          },
          onResponseError(_c, err) {
            // Once the status arrived, a body cut short changes nothing for a caller that only needs the
            // status; one that needs the body hears of it.
            settle(() => (result && o.overLimit === 'cut' ? resolve({ ...answer(), truncated: true }) : reject(err)));
          },
        },
      );
    });
  }
}

function parseHop(text: string, credentials: SendOptions['credentials']): Hop | OutboundFailure {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return new OutboundFailure('bad-url', `"${text}" is not a valid URL`, { url: text });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return new OutboundFailure('bad-url', `${url.protocol} URLs are not supported; use http or https`, { url: text });
  const hop: Hop = { origin: url.origin, path: `${url.pathname}${url.search}` };
  if (url.username !== '' || url.password !== '') {
    if (credentials === 'refuse') return new OutboundFailure('bad-url', 'URLs with a user name or password are not supported', { url: `${url.protocol}//${url.host}${url.pathname}` });
    const pair = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    hop.authorization = `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;
  }
  return hop;
}
