// Downloads a CSV from an HTTP(S) URL for the geofence sync, safely: the URL is chosen by a project,
// while the gateway usually sits next to databases and cloud metadata services. Every host is
// resolved here and each address checked with the AddressGuard; the socket then connects to those
// checked addresses only (a DNS answer that changes between check and connect cannot steer it
// elsewhere). Redirects are followed by hand, each hop checked the same way. One deadline covers the
// whole download, and the body is cut off past the size limit.
import dns from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { LookupFunction } from 'node:net';
import { readLimited, SourceError, type AddressGuard, type FetchLimits } from './port';
import { downloadDeadline } from './deadline';

export interface HttpSourceOptions extends FetchLimits {
  guard: AddressGuard;
  /** Redirects followed at most (default 5). */
  maxRedirects?: number;
  userAgent?: string;
}

interface CheckedAddress {
  address: string;
  family: 4 | 6;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const DEFAULT_MAX_REDIRECTS = 5;

/** Where a URL shows it (no query string: signed URLs carry credentials there). */
function shown(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

function parseUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new SourceError(`"${text}" is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new SourceError(`${url.protocol} URLs are not supported; use http or https`);
  if (url.username !== '' || url.password !== '') throw new SourceError('URLs with a user name or password are not supported');
  return url;
}

async function checkedAddresses(url: URL, guard: AddressGuard): Promise<CheckedAddress[]> {
  // WHATWG URLs keep IPv6 literals in brackets.
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const family = net.isIP(host);
  if (family !== 0) {
    const refused = guard.refuseAddress(host);
    if (refused) throw new SourceError(`refused to connect to ${host}: ${refused}`);
    return [{ address: host, family: family === 6 ? 6 : 4 }];
  }
  const refusedHost = guard.refuseHost(host);
  if (refusedHost) throw new SourceError(`refused to connect to ${host}: ${refusedHost}`);
  let found: Array<{ address: string; family: number }>;
  try {
    found = await dns.lookup(host, { all: true, verbatim: true });
  } catch (err) {
    throw new SourceError(`${host} could not be resolved (${(err as NodeJS.ErrnoException).code ?? 'lookup failed'})`);
  }
  if (found.length === 0) throw new SourceError(`${host} could not be resolved (no addresses)`);
  // One refused address refuses the host: a name answering both public and private addresses is
  // either misconfigured or an attempt to slip a private one through.
  for (const a of found) {
    const refused = guard.refuseAddress(a.address);
    if (refused) throw new SourceError(`refused to connect to ${host}: it resolves to ${a.address}, ${refused}`);
  }
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
}

function pinnedLookup(addresses: CheckedAddress[]): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options.all) callback(null, addresses.map((a) => ({ address: a.address, family: a.family })));
    else callback(null, addresses[0].address, addresses[0].family);
  }) as unknown as LookupFunction; // Node's LookupFunction is an overload set no single arrow satisfies.
}

type Hop = { redirect: string } | { body: Buffer };

function oneHop(url: URL, addresses: CheckedAddress[], opts: HttpSourceOptions, signal: AbortSignal): Promise<Hop> {
  const secure = url.protocol === 'https:';
  return new Promise<Hop>((resolve, reject) => {
    const request = (secure ? https : http).request(
      url,
      {
        method: 'GET',
        agent: false,
        lookup: pinnedLookup(addresses),
        signal,
        headers: {
          accept: 'text/csv, text/plain;q=0.9, */*;q=0.5',
          'accept-encoding': 'identity',
          'user-agent': opts.userAgent ?? 'Waymark-geofence-sync',
        },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const location = res.headers.location;
        if (REDIRECTS.has(status) && typeof location === 'string') {
          res.resume();
          resolve({ redirect: location });
          return;
        }
        if (status < 200 || status > 299) {
          res.resume();
          reject(new SourceError(`${shown(url)} answered HTTP ${status}${res.statusMessage ? ` ${res.statusMessage}` : ''}`));
          return;
        }
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > opts.maxBytes) {
          res.destroy();
          reject(new SourceError(`${shown(url)} is ${declared} bytes, larger than the limit of ${opts.maxBytes} bytes`));
          return;
        }
        readLimited(res, opts.maxBytes, shown(url)).then(
          (body) => resolve({ body }),
          (err: unknown) => {
            res.destroy();
            reject(err);
          },
        );
      },
    );
    request.on('error', reject);
    request.end();
  });
}

function describe(err: unknown): string {
  // Duck-typed rather than instanceof: errors may come from another realm (a vm context, a test runner).
  const e = (typeof err === 'object' && err !== null ? err : {}) as Partial<NodeJS.ErrnoException> & { errors?: unknown[] };
  // Node tries each resolved address in turn and reports all failures together.
  if (Array.isArray(e.errors) && e.errors.length > 0 && !e.message) return describe(e.errors[0]);
  if (typeof e.message !== 'string') return String(err);
  return e.code && !e.message.includes(e.code) ? `${e.code}: ${e.message}` : e.message;
}

/** Downloads `url` within the limits; rejects with a SourceError saying why not. */
export async function fetchHttpCsv(urlText: string, opts: HttpSourceOptions): Promise<Buffer> {
  const deadline = downloadDeadline(opts.timeoutMs, opts.signal);
  const { signal, aborted } = deadline;
  // DNS lookups do not take a signal; racing them against `aborted` keeps the deadline whole.
  try {
    let url = parseUrl(urlText);
    const maxRedirects = opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
    for (let hop = 0; ; hop++) {
      const addresses = await Promise.race([checkedAddresses(url, opts.guard), aborted]);
      const result = await Promise.race([oneHop(url, addresses, opts, signal), aborted]);
      if ('body' in result) return result.body;
      if (hop >= maxRedirects) throw new SourceError(`too many redirects (more than ${maxRedirects}) from ${shown(parseUrl(urlText))}`);
      let next: URL;
      try {
        next = new URL(result.redirect, url);
      } catch {
        throw new SourceError(`${shown(url)} redirected to an invalid URL`);
      }
      url = parseUrl(next.href);
    }
  } catch (err) {
    const cause = signal.aborted ? signal.reason : err;
    if (cause instanceof SourceError) throw cause;
    throw new SourceError(`download failed: ${describe(cause)}`);
  } finally {
    deadline.dispose();
  }
}
