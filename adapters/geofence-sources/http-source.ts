// Downloads a CSV from an HTTP(S) URL for the geofence sync, through the checked outbound connector
// (adapters/outbound-http): the URL is chosen by a project, while the gateway usually sits next to
// databases and cloud metadata services. Every connection, redirects included, is checked by the
// connector's address guard; one deadline covers the whole download, and the body is cut off past the
// size limit. This file says what those failures mean to the project's owner.
import { OutboundFailure, type OutboundHttp } from '../../ports/outbound-http';
import { SourceError, type FetchLimits } from '../../ports/geofence-sources';

export interface HttpSourceOptions extends FetchLimits {
  /** The connector, made with the sync's address guard. */
  client: OutboundHttp;
  /** Redirects followed at most (default 5). */
  maxRedirects?: number;
  userAgent?: string;
}

const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
const DEFAULT_MAX_REDIRECTS = 5;

/** Where a URL shows it (no query string: signed URLs carry credentials there). */
function shown(text: string): string {
  try {
    const url = new URL(text);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return text;
  }
}

function ownerMessage(err: OutboundFailure, urlText: string, opts: HttpSourceOptions): string {
  const { host, address, reason } = err.details;
  switch (err.kind) {
    case 'refused':
      return address !== undefined ? `refused to connect to ${host}: it resolves to ${address}, ${reason}` : `refused to connect to ${host}: ${reason}`;
    case 'too-many-redirects':
      return `too many redirects (more than ${opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS}) from ${shown(urlText)}`;
    case 'bad-url':
      return err.details.location !== undefined ? `${shown(err.details.url ?? urlText)} redirected to an invalid URL` : err.message;
    case 'timeout':
    case 'connect-timeout':
      return `the download did not finish within ${opts.timeoutMs} ms`;
    case 'aborted':
      return 'the download was stopped (gateway shutting down)';
    case 'unresolved':
    case 'too-large':
      return err.message;
    default:
      return `download failed: ${err.message}`;
  }
}

/** Downloads `url` within the limits; rejects with a SourceError saying why not. */
export async function fetchHttpCsv(urlText: string, opts: HttpSourceOptions): Promise<Buffer> {
  let answer;
  try {
    answer = await opts.client.send(
      {
        url: urlText, method: 'GET',
        headers: { accept: 'text/csv, text/plain;q=0.9, */*;q=0.5', 'accept-encoding': 'identity', 'user-agent': opts.userAgent ?? 'Waymark-geofence-sync' },
      },
      {
        timeoutMs: opts.timeoutMs, deadlineFrom: 'start', maxResponseBytes: opts.maxBytes, overLimit: 'fail',
        redirects: { follow: REDIRECTS, max: opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS }, credentials: 'refuse', keepAlive: false, signal: opts.signal,
      },
    );
  } catch (err) {
    if (err instanceof OutboundFailure) throw new SourceError(ownerMessage(err, urlText, opts));
    throw err;
  }
  if (answer.status < 200 || answer.status > 299) {
    throw new SourceError(`${shown(answer.url)} answered HTTP ${answer.status}${answer.statusText ? ` ${answer.statusText}` : ''}`);
  }
  return answer.body;
}
