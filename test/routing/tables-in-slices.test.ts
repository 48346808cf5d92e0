// The gateway builds a network's snapping index and each mode's tables in slices between other work
// (adapters/router/embedded/in-slices.ts over the steps of segment-index.ts and mode-tables.ts), so a
// region's seconds of building do not stall /health or any other request. Built in slices they must be the
// tables built at once, and the event loop must turn between the slices (counted, not timed: with a slice
// of 0 ms every step yields).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { importGenerated } from '../../bench/support/generated-import';
import { inSlices } from '../../adapters/router/embedded/in-slices';
import { openNetwork, type LoadedNetwork } from '../../adapters/router/embedded/network-loader';
import { modeTables } from '../../core/routing/mode-tables';
import { segmentIndexTables } from '../../core/routing/segment-index';
import { finish, type Steps } from '../../core/routing/steps';

let dir: string;
let loaded: LoadedNetwork;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-slices-'));
  loaded = (await importGenerated(40, 7, dir)).load();
}, 120_000);

afterAll(() => {
  loaded.release();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs the steps in slices of 0 ms, counting the turns of the event loop taken meanwhile. */
async function slicedWithTurns<T>(steps: Steps<T>): Promise<{ value: T; turns: number }> {
  let turns = 0;
  let building = true;
  const tick = (): void => {
    if (!building) return;
    turns++;
    setImmediate(tick);
  };
  setImmediate(tick);
  const value = await inSlices(steps, 0);
  building = false;
  return { value, turns };
}

test('the index tables built in slices are those built at once, and the event loop turns meanwhile', async () => {
  const network = loaded.network;
  const { value, turns } = await slicedWithTurns(segmentIndexTables(network));
  expect(value).toEqual(finish(segmentIndexTables(network)));
  expect(turns).toBeGreaterThan(0);
});

test.each(['car', 'foot'] as const)('the %s tables built in slices are those built at once, and the event loop turns meanwhile', async (mode) => {
  const graph = loaded.routers[mode].mode;
  const { value, turns } = await slicedWithTurns(modeTables(loaded.network, graph));
  expect(value).toEqual(finish(modeTables(loaded.network, graph)));
  expect(turns).toBeGreaterThan(0);
});

test('the gateway load (openNetwork) routes as the blocking load does', async () => {
  const served = (await openNetwork('generated', dir, loaded.bbox))!;
  try {
    // Asked again on every turn while the car is read and its tables built (between slices): each ask
    // shares the one read and gets the same router, never "let go" (the file is closed by then).
    const first = served.mode('car');
    let settled = false;
    void first.finally(() => (settled = true));
    const asks: Array<Promise<unknown>> = [];
    while (!settled) {
      asks.push(served.mode('car'));
      await new Promise((resolve) => setImmediate(resolve));
    }
    const car = await first;
    expect(asks.length).toBeGreaterThan(1);
    for (const ask of asks) expect(await ask).toBe(car);
    const blocking = loaded.routers.car;
    const pts = [0.2, 0.8].map((f) => [loaded.bbox[0] + f * (loaded.bbox[2] - loaded.bbox[0]), loaded.bbox[1] + f * (loaded.bbox[3] - loaded.bbox[1])] as [number, number]);
    const snaps = pts.map((p) => car.snap(p, 1000)!);
    const other = pts.map((p) => blocking.snap(p, 1000)!);
    expect(snaps).toEqual(other);
    const route = car.route(snaps);
    expect(route).not.toBeNull();
    expect(route).toEqual(blocking.route(other));
  } finally {
    served.release();
  }
});
