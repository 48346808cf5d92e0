// The contraction's graph holds less (issue #35): its edge lists are compacted in place, new arrays made
// only when the live lists outgrow the pool, and a store that writes finished edges out is handed the
// same chunk again. Both must leave the lists and the hierarchy exactly as they were: the lists against
// a plain model through thousands of random adds, removals and clears; the hierarchy of a generated
// car graph finished into a copying store against the one kept in memory, array for array.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { importGenerated } from '../../bench/support/generated-import';
import { prng } from '../../bench/support/prng';
import { EdgeLists, plainArrays, type ArrayMaker } from '../../core/routing/contraction-graph';
import { contract, EdgeChunk, type BaseArcs, type FinishedEdges, type Hierarchy } from '../../core/routing/contraction';

/** Counts the arrays made after the lists' own first ones. */
function countingMaker(): ArrayMaker & { arrays: number } {
  const plain = plainArrays();
  const maker = {
    arrays: 0,
    made: 0,
    u32: (n: number) => { maker.arrays++; return plain.u32(n); },
    i32: (n: number) => { maker.arrays++; return plain.i32(n); },
    f32: (n: number) => { maker.arrays++; return plain.f32(n); },
  };
  return maker;
}

function listOf(lists: EdgeLists, v: number): Array<[number, number, number]> {
  const out: Array<[number, number, number]> = [];
  for (let i = lists.first(v); i < lists.end(v); i++) out.push([lists.other[i], lists.weight[i], lists.edge[i]]);
  return out;
}

test('edge lists compacted in place keep every list and its order', () => {
  const vertices = 200;
  const random = prng(7);
  const degree = new Uint32Array(vertices).map(() => Math.floor(random() * 4));
  const lists = new EdgeLists(vertices, degree, plainArrays());
  const model: Array<Array<[number, number, number]>> = Array.from({ length: vertices }, () => []);
  const cleared = new Set<number>();
  let edge = 0;
  let live = 0;
  for (let step = 0; step < 60_000; step++) {
    const v = Math.floor(random() * vertices);
    if (cleared.has(v)) continue;
    // Adds outweigh removals until 500 entries live, then removals do: lists keep outgrowing their slots.
    const r = random();
    if (r < (live < 500 ? 0.6 : 0.4)) {
      const entry: [number, number, number] = [Math.floor(random() * vertices), Math.fround(random() * 100), edge++];
      lists.add(v, ...entry);
      model[v].push(entry);
      live++;
    } else if (r < 0.999 && model[v].length > 0) {
      // As EdgeLists.remove does: the last entry takes the removed one's place.
      const k = Math.floor(random() * model[v].length);
      lists.remove(v, model[v][k][2]);
      const last = model[v].pop()!;
      if (k < model[v].length) model[v][k] = last;
      live--;
    } else if (r >= 0.999) {
      lists.clear(v);
      live -= model[v].length;
      model[v] = [];
      cleared.add(v);
    }
    if (step % 4999 === 0) for (let u = 0; u < vertices; u++) expect(listOf(lists, u)).toEqual(model[u]);
  }
  for (let u = 0; u < vertices; u++) expect(listOf(lists, u)).toEqual(model[u]);
});

test('as vertices are contracted, the pool compacts without new arrays', () => {
  // Vertex v, contracted in order, gives its two later neighbours four shortcuts (their lists outgrow
  // their slots and move to the end of the pool) and its list goes: the live lists never outgrow the
  // pool, which still fills up with the slots left behind. A compaction into new arrays, as before,
  // made three at every compaction.
  const vertices = 2000;
  const maker = countingMaker();
  const lists = new EdgeLists(vertices, new Uint32Array(vertices).fill(2), maker);
  const model: Array<Array<[number, number, number]>> = Array.from({ length: vertices }, () => []);
  let edge = 0;
  const add = (v: number, other: number): void => {
    const entry: [number, number, number] = [other, edge, edge++];
    lists.add(v, ...entry);
    model[v].push(entry);
  };
  for (let v = 0; v < vertices; v++) for (const u of [(v + 1) % vertices, (v + 2) % vertices]) add(v, u);
  const made = maker.arrays;
  for (let v = 0; v + 2 < vertices; v++) {
    for (let k = 0; k < 3; k++) add(v + 1, v + 2);
    add(v + 2, v + 1);
    lists.clear(v);
    model[v] = [];
    if (v % 499 === 0) for (let u = 0; u < vertices; u++) expect(listOf(lists, u)).toEqual(model[u]);
  }
  for (let u = 0; u < vertices; u++) expect(listOf(lists, u)).toEqual(model[u]);
  expect(maker.arrays).toBe(made);
});

describe('finished edges written out', () => {
  let dir: string;
  let arcs: BaseArcs;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-contraction-memory-'));
    const m = (await importGenerated(70, 5, dir)).load().routers.car.mode;
    arcs = { vertexCount: m.vertexCount, tail: m.arcTail, head: m.arcHead, weight: m.arcWeight, distance: m.arcDistance };
  }, 120_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Copies every chunk it is handed, as a spill file does, and remembers which chunk objects it saw. */
  class CopyingEdges implements FinishedEdges {
    readonly copiesChunks = true;
    readonly seen = new Set<EdgeChunk>();
    private copies: EdgeChunk[] = [];
    add(chunk: EdgeChunk): void {
      this.seen.add(chunk);
      const copy = new EdgeChunk(chunk.count);
      copy.count = chunk.count;
      chunk.arrays().forEach((a, i) => copy.arrays()[i].set(a.subarray(0, chunk.count)));
      this.copies.push(copy);
    }
    forEach(visit: (chunk: EdgeChunk) => void): void {
      for (const c of this.copies) visit(c);
    }
    close(): void {
      this.copies = [];
    }
  }

  const bytes = (h: Hierarchy): Buffer[] => [h.rank, h.childA, h.childB, h.forward.first, h.forward.other, h.forward.weight, h.forward.distance,
    h.forward.edge, h.backward.first, h.backward.other, h.backward.weight, h.backward.distance, h.backward.edge].map((a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength));

  test('one chunk is refilled, and the hierarchy is the same byte for byte', () => {
    const kept = contract(arcs);
    const store = new CopyingEdges();
    const written = contract(arcs, undefined, { finishedEdges: store });
    // Enough edges for many chunks; all of them through the one chunk (the last handed over at close).
    expect(kept.childA.length).toBeGreaterThan(2 * 65_536);
    expect(store.seen.size).toBe(1);
    const a = bytes(kept);
    const b = bytes(written);
    a.forEach((buffer, i) => expect(buffer.equals(b[i])).toBe(true));
  }, 120_000);
});
