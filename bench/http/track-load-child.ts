// The track benchmark's load generator, run in its own process (bench/track.ts forks it) so that
// autocannon and the request bodies it builds never take CPU from the driver's bookkeeping or from
// the gateway's process. Sends its LoadResult back over IPC.
//
// argv: JSON of TrackLoadJob.
import { offset, prng, randomPoint, type LngLat } from '../support/metro';
import { runLoad, type LoadResult } from './load';

export interface TrackLoadJob {
  /**
   * bare: GET /v1/config. track: random walks. prime: one track per device at the walk's start (the
   * seed's first positions), so that a following track job with the same seed walks on from there.
   */
  mode: 'bare' | 'track' | 'prime';
  title: string;
  url: string;
  key: string;
  seconds: number;
  connections: number;
  devices: number;
  /** Devices are split between children by `deviceOffset`, so two children never share a device. */
  deviceOffset: number;
  seed: number;
}

async function run(job: TrackLoadJob): Promise<LoadResult> {
  if (job.mode === 'bare') {
    return runLoad({ title: job.title, url: `${job.url}/v1/config`, headers: { authorization: job.key }, durationSeconds: job.seconds, connections: job.connections });
  }
  const rnd = prng(job.seed);
  const positions: LngLat[] = Array.from({ length: job.devices }, () => randomPoint(rnd));
  let next = 0;
  const trackRequest = (req: { body?: string }) => {
    const d = next++ % job.devices;
    // A walk of up to ~30 m per step: devices drift into and out of geofences.
    if (job.mode === 'track') positions[d] = offset(positions[d], (rnd() * 2 - 1) * 30, (rnd() * 2 - 1) * 30);
    const [lng, lat] = positions[d];
    const id = d + job.deviceOffset;
    req.body = JSON.stringify({ deviceId: `device-${id}`, userId: `user-${id}`, latitude: lat, longitude: lng, accuracy: 5 + rnd() * 45, foreground: true, stopped: rnd() < 0.2 });
    return req;
  };
  return runLoad({
    title: job.title, url: `${job.url}/v1/track`, method: 'POST', headers: { authorization: job.key, 'content-type': 'application/json' },
    setupRequest: trackRequest, durationSeconds: job.seconds, connections: job.connections,
    amount: job.mode === 'prime' ? job.devices : undefined,
  });
}

if (require.main === module) {
  run(JSON.parse(process.argv[2]) as TrackLoadJob).then(
    (result) => process.send?.(result, () => process.exit(0)),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
