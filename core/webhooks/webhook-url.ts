// What a webhook URL may look like. Parsing goes through the WHATWG URL parser, the same one the
// delivery path uses, so odd host spellings ("2130706433", "0x7f.1", "[::ffff:7f00:1]") are seen in
// their normal form (127.0.0.1) before any address check.
import { isIpLiteral } from './address-safety';

export const MAX_URL_LENGTH = 2048;

export interface WebhookTarget {
  /** Normalised URL, as stored and as requested. */
  href: string;
  protocol: 'http:' | 'https:';
  /** Host name or IP literal, without IPv6 brackets. */
  host: string;
  port: number;
  /** True when the host is an IP literal (no DNS involved). */
  literal: boolean;
}

export type UrlResult = { ok: true; target: WebhookTarget } | { ok: false; message: string };

export function parseWebhookUrl(raw: string): UrlResult {
  if (raw.length > MAX_URL_LENGTH) return { ok: false, message: `url must be at most ${MAX_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, message: 'url must be an absolute http or https URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, message: 'url must use http or https' };
  if (url.hostname === '') return { ok: false, message: 'url must name a host' };
  // A fragment is never sent to the server; keeping it would only mislead whoever reads the URL.
  url.hash = '';
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const port = url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  return { ok: true, target: { href: url.href, protocol: url.protocol, host, port, literal: isIpLiteral(host) } };
}
