// Sends the scripted requests to one running gateway and keeps every request with its answer, as sent
// and as received (normalise.ts makes two recordings comparable afterwards).
import { formEncode } from '../../test/support/form-encode';

export interface RecordedPair {
  /** Position in the script, from 1. */
  n: number;
  /** What the request is for, as the script names it. */
  label: string;
  method: string;
  /** Path and query string as sent. */
  path: string;
  /** The body as sent: a JSON value, form fields, or raw text. */
  request?: unknown;
  status: number;
  contentType: string;
  /** Parsed JSON when the answer is JSON, else the text. */
  body: unknown;
}

export interface Recording {
  /** The worktree (or recording file) it came from. */
  source: string;
  /** The gateway's data directory during the run (answers may name it). */
  dataDir: string;
  /**
   * Epoch milliseconds, a whole second, an hour before the run: the script's own timestamps are
   * base + whole seconds within the first SCRIPTED_SPAN_MS, so the normaliser can tell them from the
   * server's clock.
   */
  base: number;
  pairs: RecordedPair[];
}

/** Scripted timestamps lie within this span after the base; the run itself starts an hour after it. */
export const SCRIPTED_SPAN_MS = 50 * 60_000;

export interface CallOptions {
  key?: string;
  body?: unknown;
  /** Send `body` as application/x-www-form-urlencoded (objects and arrays as JSON text, as SDKs do). */
  form?: boolean;
  query?: Record<string, string | number | boolean>;
  /** A raw body with its content type: CSV uploads, malformed JSON. */
  raw?: { contentType: string; text: string };
}

export interface Reply {
  status: number;
  // The script reads ids and keys out of answers whose shape the API documents.
  body: any;
}

export class Recorder {
  readonly pairs: RecordedPair[] = [];
  readonly base: number;

  constructor(
    readonly url: string,
    private readonly onProgress: (done: number) => void = () => {},
  ) {
    this.base = Math.floor((Date.now() - 60 * 60_000) / 1000) * 1000;
  }

  /** The script's timestamp `seconds` after the base, ISO as clients send it. */
  at(seconds: number): string {
    if (seconds < 0 || seconds * 1000 >= SCRIPTED_SPAN_MS) throw new Error(`scripted time ${seconds} s is outside the span`);
    return new Date(this.base + seconds * 1000).toISOString();
  }

  async call(label: string, method: string, path: string, opts: CallOptions = {}): Promise<Reply> {
    const url = new URL(this.url + path);
    for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = {};
    if (opts.key !== undefined) headers.authorization = opts.key;
    let payload: string | undefined;
    let request: unknown;
    if (opts.raw) {
      headers['content-type'] = opts.raw.contentType;
      payload = opts.raw.text;
      request = opts.raw.text;
    } else if (opts.body !== undefined) {
      headers['content-type'] = opts.form ? 'application/x-www-form-urlencoded' : 'application/json';
      payload = opts.form ? formEncode(opts.body as Record<string, unknown>) : JSON.stringify(opts.body);
      request = opts.body;
    }
    const res = await fetch(url, { method, headers, body: payload });
    const text = await res.text();
    const contentType = (res.headers.get('content-type') ?? '').split(';')[0];
    let body: unknown = text;
    if (contentType === 'application/json') {
      try {
        body = JSON.parse(text);
      } catch {
        // Kept as text: a JSON content type over a body that is not JSON is itself worth comparing.
      }
    }
    this.pairs.push({ n: this.pairs.length + 1, label, method, path: url.pathname + url.search, request, status: res.status, contentType, body });
    this.onProgress(this.pairs.length);
    return { status: res.status, body };
  }
}
