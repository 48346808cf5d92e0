// A load generator for latency on one connection, run in its own process (forked by a bench): sends the
// job's requests one after the other over one keep-alive socket, times each (first byte sent to the
// whole body read), and checks each answer against what the bench expected (an address near a point,
// a place by id) for hit rates. Sends a SequentialResult back over IPC.
//
// argv: path of a JSON file holding a SequentialJob (request lists are too long for argv).
import fs from 'node:fs';
import http from 'node:http';

export type Expectation =
  /**
   * One of the first `within` addresses lies within `meters` of the point. `ambiguous`: the query names
   * as well another place far from it (a copy of the address in a tiled region), so no answer can tell.
   */
  | { kind: 'near'; lon: number; lat: number; meters: number; within: number; ambiguous?: boolean }
  /** The place with this _id is among the answers. */
  | { kind: 'place'; id: string };

export interface SequentialJob {
  title: string;
  url: string;
  key: string;
  /** Requests sent first and not counted (the gateway loads indexes and tables on first use). */
  warmup: number;
  requests: Array<{ path: string; expect?: Expectation }>;
}

export interface SequentialResult {
  title: string;
  count: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  meanMs: number;
  non2xx: number;
  /** Answers that met their expectation, of those that had one. */
  hits: number;
  checked: number;
  /** The same, counting only expectations not marked ambiguous. */
  clearHits: number;
  clearChecked: number;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function get(url: string, key: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers: { authorization: key } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

function meters(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const rad = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * rad) / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2;
  return 2 * 6_371_008.8 * Math.asin(Math.min(1, Math.sqrt(a)));
}

function met(body: string, e: Expectation): boolean {
  const json = JSON.parse(body) as { addresses?: Array<{ longitude: number; latitude: number }>; places?: Array<{ _id: string }> };
  if (e.kind === 'place') return (json.places ?? []).some((p) => p._id === e.id);
  return (json.addresses ?? []).slice(0, e.within).some((a) => meters(a.longitude, a.latitude, e.lon, e.lat) <= e.meters);
}

export async function runSequential(job: SequentialJob): Promise<SequentialResult> {
  for (let i = 0; i < job.warmup; i++) await get(job.url + job.requests[i % job.requests.length].path, job.key);
  const times: number[] = [];
  let non2xx = 0;
  let hits = 0;
  let checked = 0;
  let clearHits = 0;
  let clearChecked = 0;
  for (const r of job.requests) {
    const t = process.hrtime.bigint();
    const res = await get(job.url + r.path, job.key);
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
    if (res.status < 200 || res.status >= 300) non2xx++;
    else if (r.expect) {
      const ok = met(res.body, r.expect);
      checked++;
      if (ok) hits++;
      if (r.expect.kind === 'near' && r.expect.ambiguous) continue;
      clearChecked++;
      if (ok) clearHits++;
    }
  }
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return {
    title: job.title, count: times.length, p50Ms: at(0.5), p90Ms: at(0.9), p99Ms: at(0.99),
    meanMs: times.reduce((s, x) => s + x, 0) / Math.max(1, times.length), non2xx, hits, checked, clearHits, clearChecked,
  };
}

if (require.main === module) {
  const job = JSON.parse(fs.readFileSync(process.argv[2], 'utf8')) as SequentialJob;
  runSequential(job)
    .then((result) => {
      process.send?.(result);
      agent.destroy();
    })
    .catch((err: unknown) => {
      console.error(err);
      process.exit(1);
    });
}
