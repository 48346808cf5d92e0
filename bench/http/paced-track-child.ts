// The webhook benchmark's load generator (bench/webhooks.ts, part C), in its own process so that
// autocannon never takes CPU from the gateway or the receivers: POST /v1/track at a fixed overall rate,
// each device alternating between inside and outside one geofence, so that every update makes exactly
// one event; or the bare authenticated route (GET /v1/config) at full speed, for comparison in the same
// run. With `eventShare` below 1, a device moves across the geofence's edge on that share of its updates
// only (seeded), the others repeat where it is: a share of updates make an event, as on a real fleet.
// Sends its LoadResult back over IPC.
//
// argv: JSON of PacedTrackJob.
import { prng } from '../support/metro';
import { runLoad, type LoadResult } from './load';

export interface PacedTrackJob {
  mode: 'bare' | 'alternate';
  title: string;
  url: string;
  key: string;
  seconds: number;
  connections: number;
  /** Requests per second over all connections (alternate); 0 is as fast as the gateway answers. */
  rate: number;
  devices: number;
  /** Share of updates that cross the edge (and make an event), 0–1. */
  eventShare: number;
  inside: { lat: number; lng: number };
  outside: { lat: number; lng: number };
}

function run(job: PacedTrackJob): Promise<LoadResult> {
  if (job.mode === 'bare') {
    return runLoad({ title: job.title, url: `${job.url}/v1/config`, headers: { authorization: job.key }, durationSeconds: job.seconds, connections: job.connections });
  }
  const isInside = new Uint8Array(job.devices);
  const rnd = prng(7);
  let next = 0;
  const trackRequest = (req: { body?: string }) => {
    const d = next++ % job.devices;
    if (job.eventShare >= 1 || rnd() < job.eventShare) isInside[d] ^= 1;
    const at = isInside[d] ? job.inside : job.outside;
    req.body = JSON.stringify({ deviceId: `device-${d}`, userId: `user-${d}`, latitude: at.lat, longitude: at.lng, accuracy: 5, foreground: true });
    return req;
  };
  return runLoad({
    title: job.title, url: `${job.url}/v1/track`, method: 'POST', headers: { authorization: job.key, 'content-type': 'application/json' },
    setupRequest: trackRequest, durationSeconds: job.seconds, connections: job.connections, overallRate: job.rate,
  });
}

if (require.main === module) {
  run(JSON.parse(process.argv[2]) as PacedTrackJob).then(
    (result) => process.send?.(result, () => process.exit(0)),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
