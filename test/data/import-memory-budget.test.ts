// An import under a small memory budget: the routing stage's contractions put their finished edges in
// spill files (importers/osm/stages/routing/edge-spill.ts) and build the modes fewer at a time, and must give the
// very same network files as an import without a budget. The brief asks for 300 MiB on a 4 × 4 tiled
// region; to keep CI fast this runs on one tile (the east-Baltimore extract itself), where 300 MiB
// changes nothing but the path the edges take, which is what is compared. The brief's size itself is
// bench/import-budget-check.ts (a ×4×4 region, every stage, with and without the budget, files compared
// byte for byte): two whole imports of a region are too slow for the suite.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runImport } from '../../importers/osm/import-pipeline';
import type { ProgressEvent } from '../../importers/osm/import-progress';
import { RoutingStage } from '../../importers/osm/stages/routing/routing-stage';
import { SpilledEdges } from '../../importers/osm/stages/routing/edge-spill';
import { contract, FinishedEdgesInMemory, type BaseArcs } from '../../core/routing/contraction';
import { prng } from '../../bench/support/prng';
import { requires, sharedFixture, SHARED_FIXTURES } from '../support/requires';

let DATA: string;
beforeAll(() => {
  DATA = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-budget-'));
});
afterAll(() => fs.rmSync(DATA, { recursive: true, force: true }));

/** A random sparse graph (a grid with random two-way and one-way arcs): enough shortcuts to fill several chunks. */
function gridArcs(side: number, seed: number): BaseArcs {
  const random = prng(seed);
  const tail: number[] = [], head: number[] = [], weight: number[] = [], distance: number[] = [];
  const arc = (a: number, b: number) => {
    const w = 1 + Math.floor(random() * 100) / 4;
    tail.push(a); head.push(b); weight.push(w); distance.push(w * 10);
  };
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const v = y * side + x;
      for (const o of [x + 1 < side ? v + 1 : -1, y + 1 < side ? v + side : -1]) {
        if (o < 0) continue;
        if (random() < 0.8) arc(v, o);
        if (random() < 0.8) arc(o, v);
      }
    }
  }
  return { vertexCount: side * side, tail: Uint32Array.from(tail), head: Uint32Array.from(head), weight: Float32Array.from(weight), distance: Float32Array.from(distance) };
}

test('a contraction spilling its finished edges to a file builds the same hierarchy as one keeping them in memory', () => {
  const arcs = gridArcs(160, 7);
  const inMemory = contract(arcs, undefined, { finishedEdges: new FinishedEdgesInMemory() });
  const spill = new SpilledEdges(DATA, 'grid');
  let spilled = 0;
  const spilling = contract(arcs, undefined, {
    finishedEdges: {
      add: (c) => spill.add(c),
      forEach: (visit) => spill.forEach(visit),
      close: () => {
        spilled = spill.bytesWritten;
        spill.close();
      },
    },
  });
  // More than one chunk of 64 Ki edges went through the file, and the file is gone.
  expect(inMemory.childA.length).toBeGreaterThan(1 << 16);
  expect(spilled).toBeGreaterThan((inMemory.childA.length * 28));
  expect(fs.readdirSync(DATA).filter((f) => f.endsWith('.edges'))).toEqual([]);
  expect(spilling).toEqual(inMemory);
});

const withBaltimore = requires('the east-Baltimore extract', sharedFixture('osm/us-md-baltimore-valhalla.osm.pbf'));

withBaltimore('routing stage under a memory budget', () => {
  test('300 MiB: the same network files as without a budget, no spill file left, progress for every mode', async () => {
    const file = path.join(SHARED_FIXTURES, 'osm/us-md-baltimore-valhalla.osm.pbf');
    const free = await runImport({ file, name: 'free', dataDir: DATA, stages: [new RoutingStage()] });
    const events: ProgressEvent[] = [];
    const budget = await runImport({
      file, name: 'budget', dataDir: DATA, stages: [new RoutingStage()], memoryBudgetBytes: 300 * 2 ** 20, onProgress: (e) => events.push(e),
    });
    const files = (dir: string) => fs.readdirSync(path.join(dir, 'routing')).sort();
    expect(files(budget.dir)).toEqual(['bike.bin', 'car.bin', 'foot.bin', 'network.bin', 'truck.bin']);
    expect(files(free.dir)).toEqual(files(budget.dir));
    for (const f of files(free.dir)) {
      const a = fs.readFileSync(path.join(free.dir, 'routing', f));
      const b = fs.readFileSync(path.join(budget.dir, 'routing', f));
      expect({ f, same: a.equals(b) }).toEqual({ f, same: true });
    }
    // Every step knows its place among the three (relations, nodes and ways, routing).
    expect([...new Set(events.map((e) => `${e.step}/${e.steps} ${e.label}`))]).toEqual(['1/3 read relations', '2/3 read nodes and ways', '3/3 routing']);
    const graphs = events.filter((e) => e.phase === 'building and contracting the road graph of each mode');
    expect(graphs.length).toBeGreaterThan(0);
    for (const mode of ['car', 'truck', 'bike', 'foot']) expect(graphs.some((e) => new RegExp(`\\b${mode} `).test(e.detail))).toBe(true);
    for (const e of graphs) expect(e.done).toBeLessThanOrEqual(e.total!);
    expect(events.every((e, i) => i === 0 || e.elapsed >= events[i - 1].elapsed)).toBe(true);
  }, 300_000);
});
