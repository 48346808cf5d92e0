// A real HTTP receiver on 127.0.0.1 for webhook tests: records every request (raw body included) and
// answers from a script (status, delay, redirect), then with its fallback.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** Raw body, as signed. */
  body: string;
  // Payloads are JSON documents whose shape each test asserts.
  json: any;
  /** The answer given (set when the request arrives; a delayed answer may come after the sender gave up). */
  answer: Answer;
}

export interface Answer {
  status: number;
  /** Hold the response this long (timeout tests). */
  delayMs?: number;
  headers?: Record<string, string>;
  /** Response body; `bytes` sends that many instead (bounded-read tests). */
  body?: string;
  bytes?: number;
}

export interface TestReceiver {
  url: string;
  port: number;
  received: Received[];
  /** Most requests to one path being answered at the same time (concurrency seen by a receiver). */
  maxInFlight: Map<string, number>;
  /** Answers used in order, one per request; then `fallback`. */
  script: Answer[];
  fallback: Answer;
  /** Resolves once `predicate` holds over what was received; rejects after `timeoutMs`. */
  waitFor(predicate: (received: Received[]) => boolean, timeoutMs?: number, what?: string): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(host = '127.0.0.1'): Promise<TestReceiver> {
  const timers = new Set<NodeJS.Timeout>();
  const receiver: TestReceiver = {
    url: '',
    port: 0,
    received: [],
    maxInFlight: new Map(),
    script: [],
    fallback: { status: 200 },
    waitFor: async (predicate, timeoutMs = 15_000, what = 'condition') => {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(receiver.received)) {
        if (Date.now() > deadline) throw new Error(`receiver: timed out waiting for ${what}; got ${receiver.received.length} request(s)`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    close: async () => {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const inFlight = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const path = req.url ?? '';
    inFlight.set(path, (inFlight.get(path) ?? 0) + 1);
    receiver.maxInFlight.set(path, Math.max(receiver.maxInFlight.get(path) ?? 0, inFlight.get(path) ?? 0));
    res.on('close', () => inFlight.set(path, (inFlight.get(path) ?? 1) - 1));
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const answer = receiver.script.shift() ?? receiver.fallback;
      receiver.received.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, json, answer });
      const reply = (): void => {
        if (res.destroyed) return;
        res.writeHead(answer.status, { 'content-type': 'text/plain', ...(answer.headers ?? {}) });
        if (answer.bytes !== undefined) {
          const chunk = Buffer.alloc(64 * 1024, 97);
          let left = answer.bytes;
          const pump = (): void => {
            while (left > 0) {
              const n = Math.min(left, chunk.length);
              left -= n;
              if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
                res.once('drain', pump);
                return;
              }
            }
            res.end();
          };
          res.on('error', () => undefined);
          pump();
          return;
        }
        res.end(answer.body ?? 'ok');
      };
      if (answer.delayMs) {
        const t = setTimeout(() => {
          timers.delete(t);
          reply();
        }, answer.delayMs);
        timers.add(t);
      } else {
        reply();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  receiver.port = port;
  receiver.url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return receiver;
}
