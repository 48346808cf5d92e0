// Loads the routing stage's files of one extract (core/formats/routing/network-files.ts) as typed-array
// views over the file buffers, and makes a ModeRouter per mode, a mode when it is first asked for. One
// read per file, no parsing.
import fs from 'node:fs';
import path from 'node:path';
import type { RouterMode } from '../../../ports/router';
import type { Hierarchy } from '../../../core/routing/contraction';
import { ModeRouter } from '../../../core/routing/mode-router';
import type { ModeGraph, Network } from '../../../core/routing/network';
import { SegmentIndex } from '../../../core/routing/segment-index';
import { decodeArrays } from '../../../core/formats/routing/typed-container';

export const ROUTING_STAGE = 'routing';
const MODES: readonly RouterMode[] = ['car', 'truck', 'bike', 'foot'];
const TRAVEL_MODE: Record<RouterMode, string> = { car: 'driving', truck: 'driving', bike: 'cycling', foot: 'walking' };

export interface LoadedNetwork {
  extract: string;
  /** [west, south, east, north]. */
  bbox: [number, number, number, number];
  routers: Record<RouterMode, ModeRouter>;
  /** Lets the mode files go (closes those not read yet): the network is not asked again after. */
  release(): void;
}

// The container's arrays are typed by name in network-files.ts; a cast per field keeps this readable.
type Arrays = Record<string, any>;

export function readNetwork(dir: string): Network {
  const { meta, arrays } = decodeArrays(fs.readFileSync(path.join(dir, 'network.bin')));
  const a = arrays as Arrays;
  return {
    pointLon: a.pointLon, pointLat: a.pointLat, segmentStart: a.segmentStart, segmentFrom: a.segmentFrom, segmentTo: a.segmentTo,
    segmentLength: a.segmentLength, segmentFlags: a.segmentFlags, segmentWay: a.segmentWay, wayName: a.wayName, wayRef: a.wayRef,
    wayClass: a.wayClass, wayMaxspeed: a.wayMaxspeed, wayOsmId: a.wayOsmId, vertexPoint: a.vertexPoint, strings: (meta as { strings: string[] }).strings,
  };
}

/** Mode files this reader knows: 1 edge-based only, 2 with its GraphKind in `graph` (network-files.ts). */
const MODE_FILE_VERSIONS = [1, 2];

export function readModeGraph(dir: string, mode: RouterMode): ModeGraph {
  const file = path.join(dir, `${mode}.bin`);
  return modeGraphOf(fs.readFileSync(file), file);
}

function modeGraphOf(bytes: Buffer, file: string): ModeGraph {
  const { meta, arrays } = decodeArrays(bytes);
  const { version, graph } = meta as { version?: number; graph?: string };
  if (version !== undefined && !MODE_FILE_VERSIONS.includes(version)) {
    throw new Error(`${file} is mode file version ${version}, newer than this gateway reads (${MODE_FILE_VERSIONS.join(', ')}): upgrade it or re-import the extract`);
  }
  const a = arrays as Arrays;
  const hierarchy: Hierarchy = {
    rank: a.rank, childA: a.childA, childB: a.childB,
    forward: { first: a.fFirst, other: a.fOther, weight: a.fWeight, distance: a.fDistance, edge: a.fEdge },
    backward: { first: a.bFirst, other: a.bOther, weight: a.bWeight, distance: a.bDistance, edge: a.bEdge },
  };
  return {
    kind: graph === 'node' ? 'node' : 'edge',
    vertexCount: (meta as { vertexCount: number }).vertexCount, arcTail: a.arcTail, arcHead: a.arcHead,
    // Files written before arcSeconds existed had no routing penalties: their weights are the times.
    arcWeight: a.arcWeight, arcDistance: a.arcDistance, arcSeconds: a.arcSeconds ?? a.arcWeight, segmentForward: a.segmentForward,
    segmentBackward: a.segmentBackward, segmentMain: a.segmentMain, hierarchy, duplicateOf: a.duplicateOf as Uint32Array | undefined,
  };
}

/** Mode files left open by networks the gateway let go without release() (tests, tools): closed when collected. */
const unreleased = new FinalizationRegistry<Map<RouterMode, number>>((open) => {
  for (const fd of open.values()) fs.closeSync(fd);
});

/**
 * The network and its index at once, the car's graph too (the default mode, and a bad file shows at
 * load rather than on a request); the other modes' graphs on their first request. On a region most
 * requests are by car: reading and preparing all four modes doubled the start-up time and held the
 * others' files and workspaces for nothing. A mode file that is missing fails the load all the same.
 *
 * The mode files are opened here and read on first use from the open file: a re-import renames the
 * folder away (and deletes it) before the gateway looks again, and a mode read by path in between
 * would pair the new import's graph with this network.
 */
export function loadNetwork(extract: string, extractDir: string, bbox: [number, number, number, number]): LoadedNetwork | null {
  const dir = path.join(extractDir, ROUTING_STAGE);
  if (!fs.existsSync(path.join(dir, 'network.bin'))) return null;
  const open = new Map<RouterMode, number>();
  const close = (): void => {
    for (const fd of open.values()) fs.closeSync(fd);
    open.clear();
  };
  let network: Network;
  try {
    for (const mode of MODES) {
      const file = path.join(dir, `${mode}.bin`);
      try {
        open.set(mode, fs.openSync(file, 'r'));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(`routing file ${mode}.bin is missing in ${dir}`);
        throw err;
      }
    }
    network = readNetwork(dir);
  } catch (err) {
    close();
    throw err;
  }
  const index = new SegmentIndex(network);
  const made: Partial<Record<RouterMode, ModeRouter>> = {};
  let released = false;
  const router = (mode: RouterMode): ModeRouter => {
    const ready = made[mode];
    if (ready) return ready;
    const fd = open.get(mode);
    if (released || fd === undefined) throw new Error(`the ${mode} graph of ${extract} was let go (the extract was re-imported or removed)`);
    try {
      // The file was opened at load and not read since, so reading it from its position reads all of it.
      made[mode] = new ModeRouter(network, modeGraphOf(fs.readFileSync(fd), path.join(dir, `${mode}.bin`)), index, TRAVEL_MODE[mode]);
    } finally {
      fs.closeSync(fd);
      open.delete(mode);
    }
    return made[mode]!;
  };
  const routers = {} as Record<RouterMode, ModeRouter>;
  for (const mode of MODES) Object.defineProperty(routers, mode, { enumerable: true, get: () => router(mode) });
  const loaded: LoadedNetwork = {
    extract, bbox, routers,
    release: () => {
      released = true;
      unreleased.unregister(loaded);
      close();
      for (const mode of MODES) delete made[mode];
    },
  };
  unreleased.register(loaded, open, loaded);
  try {
    router('car');
  } catch (err) {
    loaded.release();
    throw err;
  }
  return loaded;
}
