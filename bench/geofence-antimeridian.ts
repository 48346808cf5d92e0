// One nearPrepared() lookup whose search box splits at the antimeridian, over 40,000 geofences near the
// pole (so both halves hold thousands). The two halves used to be merged with Array.includes (quadratic:
// 317 ms a lookup in issue #10); now with a Set. Bounded: 40,000 fences, 20 lookups.
//
// Run: npm run bench:build && node dist/bench/geofence-antimeridian.js
import os from 'node:os';
import { GeofenceIndex } from '../core/geofencing';
import { circleGeometry } from '../core/geofence-shape';
import type { Geofence, LngLat } from '../core/types';
import { prng } from './support/prng';

const FENCES = 40_000;
const LOOKUPS = 20;

function fences(): Geofence[] {
  const random = prng(10);
  return Array.from({ length: FENCES }, (_, i): Geofence => {
    const center: LngLat = [-180 + random() * 360, 88 + random() * 1.5];
    return {
      _id: `g${i}`, tag: 'polar', externalId: `e${i}`, description: `fence ${i}`, type: 'circle', enabled: true,
      geometryCenter: { type: 'Point', coordinates: center }, geometryRadius: 200, geometry: circleGeometry(center, 200),
    } as Geofence;
  });
}

function main(): void {
  const index = new GeofenceIndex();
  index.load(fences());
  let found = 0;
  const started = process.hrtime.bigint();
  for (let i = 0; i < LOOKUPS; i++) found = index.nearPrepared([179.99, 88.7], 60_000).length;
  const ms = Number(process.hrtime.bigint() - started) / 1e6 / LOOKUPS;
  console.log(`load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.log(`${FENCES} fences, ${found} candidates per lookup across the antimeridian: ${ms.toFixed(2)} ms per lookup`);
}

main();
