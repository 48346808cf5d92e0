// Downloads an extract from an HTTP(S) URL to a file, streaming (extracts run to gigabytes), following
// redirects, with byte progress. Not the geofence sync's SSRF-guarded client: that one buffers the
// body in memory under a size cap and refuses private addresses, because a project chooses its URL;
// here the operator types the URL on the server itself, and a mirror on the local network is normal.
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';

export interface DownloadOptions {
  signal?: AbortSignal;
  onProgress?(bytes: number, total: number | undefined): void;
  /** A connection silent for this long fails the download (default 60 s). */
  idleTimeoutMs?: number;
}

export class DownloadError extends Error {}

const MAX_REDIRECTS = 5;

function shown(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

export function isUrl(text: string): boolean {
  return /^https?:\/\//i.test(text);
}

function get(url: URL, options: DownloadOptions): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? https : http).get(url, { signal: options.signal, headers: { 'user-agent': 'Waymark-data-import', 'accept-encoding': 'identity' } }, resolve);
    request.setTimeout(options.idleTimeoutMs ?? 60_000, () => request.destroy(new DownloadError(`${shown(url)} sent nothing for ${Math.round((options.idleTimeoutMs ?? 60_000) / 1000)} s`)));
    request.on('error', reject);
  });
}

/** Saves `urlText` to `file`; resolves with the final URL after redirects. */
export async function downloadToFile(urlText: string, file: string, options: DownloadOptions = {}): Promise<string> {
  let url: URL;
  try {
    url = new URL(urlText);
  } catch {
    throw new DownloadError(`"${urlText}" is not a valid URL`);
  }
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new DownloadError(`${url.protocol} URLs are not supported; use http or https`);
    let response: http.IncomingMessage;
    try {
      response = await get(url, options);
    } catch (err) {
      if (err instanceof DownloadError) throw err;
      throw new DownloadError(`download of ${shown(url)} failed: ${(err as Error).message}`);
    }
    const status = response.statusCode ?? 0;
    if (status >= 300 && status < 400 && typeof response.headers.location === 'string') {
      response.resume();
      if (hop >= MAX_REDIRECTS) throw new DownloadError(`too many redirects from ${shown(new URL(urlText))}`);
      url = new URL(response.headers.location, url);
      continue;
    }
    if (status < 200 || status > 299) {
      response.resume();
      throw new DownloadError(`${shown(url)} answered HTTP ${status}${response.statusMessage ? ` ${response.statusMessage}` : ''}`);
    }
    const declared = Number(response.headers['content-length']);
    const total = Number.isFinite(declared) && declared > 0 ? declared : undefined;
    let bytes = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        bytes += chunk.length;
        options.onProgress?.(bytes, total);
        done(null, chunk);
      },
    });
    try {
      await pipeline(response, counter, fs.createWriteStream(file));
    } catch (err) {
      throw new DownloadError(`download of ${shown(url)} failed after ${bytes} bytes: ${(err as Error).message}`);
    }
    if (total !== undefined && bytes !== total) throw new DownloadError(`download of ${shown(url)} ended after ${bytes} of ${total} bytes`);
    return url.href;
  }
}
