// The import stores what a router derives from the routing files (the snapping index in network.bin,
// each mode's tables in its file: core/formats/routing/derived-tables.ts), so a gateway starting on a
// region reads them instead of building them. Stored, they must be exactly what the builders make; files
// written before (without them), or with tables of another builder version, are still served, their
// tables built at load, with the same answers. A network let go keeps none of its graphs in memory.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { importGenerated } from '../../bench/support/generated-import';
import { collectGarbage } from '../../adapters/router/embedded/collect-garbage';
import { openNetwork, ROUTING_STAGE, type LoadedNetwork } from '../../adapters/router/embedded/network-loader';
import { INDEX_TABLES_VERSION, MODE_TABLES_VERSION, storedIndex, storedModeTables } from '../../core/formats/routing/derived-tables';
import { decodeArrays, encodeArrays } from '../../core/formats/routing/typed-container';
import type { ModeRouter } from '../../core/routing/mode-router';
import { modeTablesNow } from '../../core/routing/mode-tables';
import { segmentIndexTables } from '../../core/routing/segment-index';
import { finish } from '../../core/routing/steps';

const MODES = ['car', 'truck', 'bike', 'foot'] as const;
let dir: string;
let loaded: LoadedNetwork;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-stored-tables-'));
  loaded = (await importGenerated(40, 11, dir)).load();
}, 120_000);

afterAll(() => {
  loaded.release();
  fs.rmSync(dir, { recursive: true, force: true });
});

const routingFile = (extractDir: string, name: string): string => path.join(extractDir, ROUTING_STAGE, name);

function decoded(extractDir: string, name: string): { meta: Record<string, unknown>; arrays: Record<string, unknown> } {
  const { meta, arrays } = decodeArrays(fs.readFileSync(routingFile(extractDir, name)));
  return { meta: meta as Record<string, unknown>, arrays };
}

/** Rewrites a routing file without the arrays `drop` names, or with its header changed by `edit`. */
function rewrite(extractDir: string, name: string, drop: (array: string) => boolean, edit: (meta: Record<string, unknown>) => void = () => undefined): void {
  const { meta, arrays } = decodeArrays(fs.readFileSync(routingFile(extractDir, name)));
  const kept = Object.fromEntries(Object.entries(arrays).filter(([array]) => !drop(array)));
  const header = { ...(meta as Record<string, unknown>) };
  edit(header);
  fs.writeFileSync(routingFile(extractDir, name), Buffer.concat(encodeArrays(kept as Parameters<typeof encodeArrays>[0], header)));
}

/** A copy of the imported extract's folder. */
function copyOfExtract(): string {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-stored-tables-copy-'));
  fs.cpSync(dir, copy, { recursive: true });
  return copy;
}

/** Car and foot routes between a few points across the box, through the gateway's load of `extractDir`. */
async function routesOf(extractDir: string): Promise<unknown[]> {
  const served = (await openNetwork('generated', extractDir, loaded.bbox))!;
  try {
    const [w, s, e, n] = loaded.bbox;
    const at = (fx: number, fy: number): [number, number] => [w + fx * (e - w), s + fy * (n - s)];
    const out: unknown[] = [];
    for (const mode of ['car', 'foot'] as const) {
      const router = await served.mode(mode);
      for (const [a, b] of [[at(0.1, 0.2), at(0.9, 0.7)], [at(0.5, 0.1), at(0.3, 0.95)], [at(0.8, 0.8), at(0.2, 0.3)]]) {
        out.push(router.route([router.snap(a, 1000)!, router.snap(b, 1000)!]));
      }
    }
    return out;
  } finally {
    served.release();
  }
}

test('network.bin holds the snapping index the builder makes from its network', () => {
  const { meta, arrays } = decoded(dir, 'network.bin');
  const stored = storedIndex(arrays, meta.index as Parameters<typeof storedIndex>[1]);
  expect(stored).toBeDefined();
  expect(stored).toEqual(finish(segmentIndexTables(loaded.network)));
});

test.each(MODES)('%s.bin holds the tables the builder makes from its graph and network', (mode) => {
  const { meta, arrays } = decoded(dir, `${mode}.bin`);
  const stored = storedModeTables(arrays, meta.tables as Parameters<typeof storedModeTables>[1]);
  expect(stored).toBeDefined();
  expect(stored).toEqual(modeTablesNow(loaded.network, loaded.routers[mode].mode));
});

test('tables of another builder version are not taken', () => {
  const network = decoded(dir, 'network.bin');
  const car = decoded(dir, 'car.bin');
  expect(storedIndex(network.arrays, { ...(network.meta.index as Parameters<typeof storedIndex>[1])!, version: INDEX_TABLES_VERSION + 1 })).toBeUndefined();
  expect(storedModeTables(car.arrays, { ...(car.meta.tables as Parameters<typeof storedModeTables>[1])!, version: MODE_TABLES_VERSION + 1 })).toBeUndefined();
});

test('files without stored tables, or with tables of another version, route as the files with them', async () => {
  const expected = await routesOf(dir);
  expect(expected.every((r) => r !== null)).toBe(true);
  const old = copyOfExtract();
  const otherVersion = copyOfExtract();
  try {
    // As written before the tables were stored.
    rewrite(old, 'network.bin', (a) => a.startsWith('index'), (meta) => {
      delete meta.index;
      meta.version = 1;
    });
    for (const mode of MODES) rewrite(old, `${mode}.bin`, (a) => a.startsWith('tables'), (meta) => delete meta.tables);
    expect(storedIndex(decoded(old, 'network.bin').arrays, undefined)).toBeUndefined();
    expect(await routesOf(old)).toEqual(expected);
    // Stored by a builder of another version, and wrong: ignored, so the answers do not change.
    rewrite(otherVersion, 'car.bin', () => false, (meta) => {
      meta.tables = { ...(meta.tables as object), version: MODE_TABLES_VERSION + 1, bigComponent: false };
    });
    rewrite(otherVersion, 'network.bin', () => false, (meta) => {
      meta.index = { ...(meta.index as object), version: INDEX_TABLES_VERSION + 1, cols: 1, rows: 1 };
    });
    expect(await routesOf(otherVersion)).toEqual(expected);
  } finally {
    fs.rmSync(old, { recursive: true, force: true });
    fs.rmSync(otherVersion, { recursive: true, force: true });
  }
}, 120_000);

test('a network let go holds none of its graphs, even while something still holds the network', async () => {
  const served = (await openNetwork('generated', dir, loaded.bbox))!;
  const graphs: Array<WeakRef<ModeRouter>> = [];
  for (const mode of MODES) graphs.push(new WeakRef(await served.mode(mode)));
  served.release();
  // Without a collector to call, nothing can be said of what it would free.
  if (!collectGarbage()) return;
  await new Promise((resolve) => setImmediate(resolve));
  collectGarbage();
  expect(graphs.map((g) => g.deref() === undefined)).toEqual(MODES.map(() => true));
  // Still held here (as the gateway's reload holds the network it replaces while it reads the new modes).
  expect(served.modesRead()).toEqual([]);
}, 120_000);
