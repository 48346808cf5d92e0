// A thin wrapper over autocannon that prints one comparable line per run.
import autocannon from 'autocannon';

export interface LoadOptions {
  title: string;
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  /** Called before each request to vary it (e.g. a different device per request). */
  setupRequest?: (req: { method?: string; path?: string; body?: string; headers?: Record<string, string> }) => typeof req;
  connections?: number;
  durationSeconds?: number;
  /** Stop after this many requests instead of after durationSeconds. */
  amount?: number;
  /** Requests per second over all connections at most (a paced load); 0 or absent: as fast as answered. */
  overallRate?: number;
}

export interface LoadResult {
  title: string;
  requestsPerSecond: number;
  /** Requests answered in the run. */
  total: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  /** Requests answered 2xx over the run. */
  ok: number;
}

export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: opts.url,
    method: opts.method ?? 'GET',
    headers: opts.headers,
    body: opts.body,
    connections: opts.connections ?? 32,
    duration: opts.durationSeconds ?? 10,
    amount: opts.amount,
    overallRate: opts.overallRate,
    requests: opts.setupRequest ? [{ setupRequest: opts.setupRequest }] : undefined,
  } as autocannon.Options);
  const out: LoadResult = {
    title: opts.title,
    requestsPerSecond: result.requests.average,
    total: result.requests.total,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    ok: result['2xx'],
  };
  console.log(
    `${out.title.padEnd(36)} ${out.requestsPerSecond.toFixed(0).padStart(7)} req/s   p50 ${out.p50Ms.toFixed(1).padStart(6)} ms   p99 ${out.p99Ms.toFixed(1).padStart(6)} ms` +
      (out.non2xx || out.errors ? `   non-2xx ${out.non2xx} errors ${out.errors}` : ''),
  );
  return out;
}
