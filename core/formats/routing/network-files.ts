// Writes the routing stage's files: `network.bin` (geometry, segments, ways, strings) and one
// `<mode>.bin` per mode (arcs, crossing times, hierarchy), in the typed-array container the router
// maps straight back into typed arrays. Each file also holds what the router derives from it (the
// snapping index, the mode's tables: derived-tables.ts), so a gateway reads them rather than building them.
import fs from 'node:fs';
import path from 'node:path';
import { encodeArrays } from './typed-container';
import type { ModeGraph, Network } from '../../routing/network';
import { modeTables } from '../../routing/mode-tables';
import { segmentIndexTables } from '../../routing/segment-index';
import { finish } from '../../routing/steps';
import { indexArrays, modeTablesArrays } from './derived-tables';

export const NETWORK_FILE = 'network.bin';
export const modeFile = (mode: string): string => `${mode}.bin`;
/** Network files: 2 holds the snapping index (`index` in the header, `index*` arrays); readers of 1 ignore it. */
export const ROUTING_FORMAT_VERSION = 2;
/**
 * Mode files: 2 says in `graph` whether the graph is edge- or node-based (version 1 files are all
 * edge-based). The mode's tables (`tables` in the header, `tables*` arrays) are optional within 2: readers
 * that do not know them read the graph as before.
 */
export const MODE_FORMAT_VERSION = 2;

/** Bytes handed to one write call: a mode file at ×20×20 is 2 GiB, written between `tick`s. */
const WRITE_BYTES = 64 * 2 ** 20;

function write(file: string, parts: Buffer[], tick: () => void = () => undefined): void {
  const fd = fs.openSync(file, 'w');
  try {
    for (const p of parts) {
      for (let at = 0; at < p.length; at += WRITE_BYTES) {
        fs.writeSync(fd, p, at, Math.min(WRITE_BYTES, p.length - at));
        tick();
      }
    }
  } finally {
    fs.closeSync(fd);
  }
}

export function writeNetwork(dir: string, n: Network): number {
  const { strings, ...arrays } = n;
  const index = indexArrays(finish(segmentIndexTables(n)));
  const parts = encodeArrays({ ...arrays, ...index.arrays }, { version: ROUTING_FORMAT_VERSION, strings, index: index.meta });
  write(path.join(dir, NETWORK_FILE), parts);
  return parts.reduce((s, p) => s + p.length, 0);
}

/**
 * `network`: the graph's own network, which the mode's tables are derived with. `tick` is called between
 * the tables' steps and between writes: at ×20×20 deriving and writing one mode took 19 s, which a
 * caller on the same thread reports progress through.
 */
export function writeModeGraph(dir: string, mode: string, g: ModeGraph, network: Network, tick: () => void = () => undefined): number {
  const h = g.hierarchy;
  const tables = modeTablesArrays(finish(modeTables(network, g), tick));
  const parts = encodeArrays({
    arcTail: g.arcTail, arcHead: g.arcHead, arcWeight: g.arcWeight, arcDistance: g.arcDistance, arcSeconds: g.arcSeconds,
    segmentForward: g.segmentForward, segmentBackward: g.segmentBackward, segmentMain: g.segmentMain,
    duplicateOf: g.duplicateOf ?? new Uint32Array(0),
    ...(g.ratePercent ? { ratePercent: g.ratePercent } : {}),
    rank: h.rank, childA: h.childA, childB: h.childB,
    fFirst: h.forward.first, fOther: h.forward.other, fWeight: h.forward.weight, fDistance: h.forward.distance, fEdge: h.forward.edge,
    bFirst: h.backward.first, bOther: h.backward.other, bWeight: h.backward.weight, bDistance: h.backward.distance, bEdge: h.backward.edge,
    ...tables.arrays,
  }, { version: MODE_FORMAT_VERSION, mode, graph: g.kind, vertexCount: g.vertexCount, tables: tables.meta });
  write(path.join(dir, modeFile(mode)), parts, tick);
  return parts.reduce((s, p) => s + p.length, 0);
}
