// The snapping index skips cells and pieces that cannot hold anything nearer than the best found so far
// (a ring's distance from the point, a piece's box): on a region that is most of a snap's work. Skipping
// must never lose the nearest piece, so every answer is checked against a scan of every piece of the
// network, on seeded points inside and around a generated network, with and without a segment filter.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { importGenerated } from '../../bench/support/generated-import';
import type { LoadedNetwork } from '../../adapters/router/embedded/network-loader';
import { SegmentIndex } from '../../core/routing/segment-index';
import type { Network } from '../../core/routing/network';
import { prng } from '../../bench/support/prng';

let dir: string;
let loaded: LoadedNetwork;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-nearest-'));
  loaded = (await importGenerated(40, 11, dir)).load();
}, 120_000);

afterAll(() => {
  loaded.release();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Metres to the nearest piece of an accepted segment, every piece looked at (the index's plane: metres per degree at the point's latitude). */
function nearestByScan(n: Network, lon: number, lat: number, maxMetres: number, accept: (s: number) => boolean): number | null {
  const kx = Math.cos((lat * Math.PI) / 180) * 111_320, ky = 111_320;
  let best = Infinity;
  for (let s = 0; s < n.segmentFrom.length; s++) {
    if (!accept(s)) continue;
    for (let p = n.segmentStart[s]; p < n.segmentStart[s + 1] - 1; p++) {
      const ax = (n.pointLon[p] / 1e7 - lon) * kx, ay = (n.pointLat[p] / 1e7 - lat) * ky;
      const bx = (n.pointLon[p + 1] / 1e7 - lon) * kx, by = (n.pointLat[p + 1] / 1e7 - lat) * ky;
      const dx = bx - ax, dy = by - ay;
      const len2 = dx * dx + dy * dy;
      const t = len2 > 0 ? Math.min(1, Math.max(0, -(ax * dx + ay * dy) / len2)) : 0;
      best = Math.min(best, Math.hypot(ax + t * dx, ay + t * dy));
    }
  }
  return best <= maxMetres ? best : null;
}

test.each([
  ['every segment', (_s: number) => true],
  ['two segments in three', (s: number) => s % 3 !== 0],
])('the nearest piece (%s) is the one a scan of every piece finds, within the radius or none', (_label, accept) => {
  const n = loaded.network;
  const index = new SegmentIndex(n);
  let west = Infinity, east = -Infinity, south = Infinity, north = -Infinity;
  for (let p = 0; p < n.pointLon.length; p++) {
    west = Math.min(west, n.pointLon[p] / 1e7);
    east = Math.max(east, n.pointLon[p] / 1e7);
    south = Math.min(south, n.pointLat[p] / 1e7);
    north = Math.max(north, n.pointLat[p] / 1e7);
  }
  const random = prng(7);
  let found = 0, none = 0;
  for (let i = 0; i < 400; i++) {
    // Around the network too (a margin of a fifth of its size), where rings are empty or the point is off the grid.
    const lon = west - 0.2 * (east - west) + random() * 1.4 * (east - west);
    const lat = south - 0.2 * (north - south) + random() * 1.4 * (north - south);
    const radius = [30, 200, 1000][i % 3];
    const expected = nearestByScan(n, lon, lat, radius, accept);
    const snap = index.nearest(lon, lat, radius, accept);
    if (expected === null) {
      expect(snap).toBeNull();
      none++;
      continue;
    }
    expect(snap).not.toBeNull();
    expect(accept(snap!.segment)).toBe(true);
    expect(Math.abs(snap!.distance - expected)).toBeLessThan(1e-6);
    found++;
  }
  // Both kinds of answer were asked about.
  expect(found).toBeGreaterThan(100);
  expect(none).toBeGreaterThan(10);
});
