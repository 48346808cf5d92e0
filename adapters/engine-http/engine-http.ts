// The one HTTP JSON client of the external-engine adapters (OSRM, Valhalla, Pelias): a connection pool per
// engine, one deadline per request, a bounded response body, and transport failures turned into
// EngineUnreachable. What an engine's own error bodies mean is the adapter's business: this returns status
// and parsed body.
import type { Pool } from 'undici';

/** The engine did not answer usefully: refused connection, timeout, 5xx, a body that is not its JSON. */
export class EngineUnreachable extends Error {
  constructor(readonly engine: string, detail: string) {
    super(`${engine} is unavailable: ${detail}`);
    this.name = 'EngineUnreachable';
  }
}

export interface EngineHttpOptions {
  /** Engine name for messages ("osrm", "valhalla"). */
  engine: string;
  /** http(s)://host:port[/prefix], no trailing slash needed. */
  baseUrl: string;
  /** Whole-request deadline (connect, send, headers, body). */
  timeoutMs: number;
  /** Largest response body read; larger answers are refused rather than buffered. */
  maxBytes?: number;
  /** Connections kept to the engine. */
  connections?: number;
}

export interface EngineReply {
  status: number;
  body: unknown;
}

const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;

export class EngineHttp {
  private readonly pool: Pool;
  private readonly prefix: string;
  private readonly maxBytes: number;

  constructor(private readonly opts: EngineHttpOptions) {
    const url = new URL(opts.baseUrl);
    // Required here, not imported: undici costs ~9 MiB of memory once loaded, and a gateway without an
    // external engine never builds a client.
    const { Pool: UndiciPool } = require('undici') as typeof import('undici');
    this.pool = new UndiciPool(url.origin, { connections: opts.connections ?? 16, keepAliveTimeout: 30_000 });
    this.prefix = url.pathname.replace(/\/+$/, '');
    this.maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  }

  get(pathAndQuery: string): Promise<EngineReply> {
    return this.send('GET', pathAndQuery);
  }

  post(path: string, json: unknown): Promise<EngineReply> {
    return this.send('POST', path, JSON.stringify(json));
  }

  async close(): Promise<void> {
    await this.pool.close();
  }

  private async send(method: 'GET' | 'POST', pathAndQuery: string, body?: string): Promise<EngineReply> {
    const { engine, timeoutMs } = this.opts;
    const signal = AbortSignal.timeout(timeoutMs);
    let text: string;
    let status: number;
    try {
      const res = await this.pool.request({
        method,
        path: this.prefix + pathAndQuery,
        body,
        headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
        signal,
      });
      status = res.statusCode;
      text = await readBounded(res.body, this.maxBytes, engine);
    } catch (err) {
      if (err instanceof EngineUnreachable) throw err;
      if (signal.aborted) throw new EngineUnreachable(engine, `no answer within ${timeoutMs} ms`);
      throw new EngineUnreachable(engine, err instanceof Error ? err.message : String(err));
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new EngineUnreachable(engine, `answered ${status} with a body that is not JSON`);
    }
    return { status, body: parsed };
  }
}

async function readBounded(body: AsyncIterable<Buffer> & { destroy(err?: Error): unknown }, maxBytes: number, engine: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > maxBytes) {
      body.destroy();
      throw new EngineUnreachable(engine, `answer larger than ${maxBytes} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
