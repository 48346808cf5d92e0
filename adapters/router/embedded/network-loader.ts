// Loads the routing stage's files of one extract (core/formats/routing/network-files.ts) as typed-array
// views over the file buffers, and makes a ModeRouter per mode, a mode when it is first asked for. One
// read per file, no parsing.
import fs from 'node:fs';
import path from 'node:path';
import type { RouterMode } from '../../../ports/router';
import type { Hierarchy } from '../../../core/routing/contraction';
import { ModeRouter } from '../../../core/routing/mode-router';
import { SearchWorkspace } from '../../../core/routing/ch-query';
import type { ModeGraph, Network } from '../../../core/routing/network';
import { modeTables, type ModeTables } from '../../../core/routing/mode-tables';
import { SegmentIndex, segmentIndexTables, type SegmentIndexTables } from '../../../core/routing/segment-index';
import { inSlices } from './in-slices';
import { decodeArrays, readArrays, type DecodedArrays } from '../../../core/formats/routing/typed-container';
import { storedIndex, storedModeTables, type StoredIndexMeta, type StoredModeTablesMeta } from '../../../core/formats/routing/derived-tables';

export const ROUTING_STAGE = 'routing';
const MODES: readonly RouterMode[] = ['car', 'truck', 'bike', 'foot'];
const TRAVEL_MODE: Record<RouterMode, string> = { car: 'driving', truck: 'driving', bike: 'cycling', foot: 'walking' };

export interface LoadedNetwork {
  extract: string;
  /** [west, south, east, north]. */
  bbox: [number, number, number, number];
  /** Geometry, segments and ways, shared by the modes. */
  network: Network;
  /** Each mode's router; a mode not read yet is read here, blocking (tools and tests; the gateway uses `mode`). */
  routers: Record<RouterMode, ModeRouter>;
  /** The mode's router when its file has been read, else undefined (nothing is read). */
  ready(mode: RouterMode): ModeRouter | undefined;
  /** The mode's router, its file read without blocking the thread the first time; callers share one read. */
  mode(mode: RouterMode): Promise<ModeRouter>;
  /** Modes read so far. */
  modesRead(): RouterMode[];
  /** Lets the mode files go (closes those not read yet): the network is not asked again after. */
  release(): void;
}

// The container's arrays are typed by name in network-files.ts; a cast per field keeps this readable.
type Arrays = Record<string, any>;

export function readNetwork(dir: string): Network {
  return networkOf(decodeArrays(fs.readFileSync(path.join(dir, 'network.bin')))).network;
}

/** The network, and its snapping index when the file holds one (written since network format 2). */
function networkOf({ meta, arrays }: DecodedArrays): { network: Network; index: SegmentIndexTables | undefined } {
  const a = arrays as Arrays;
  const network: Network = {
    pointLon: a.pointLon, pointLat: a.pointLat, segmentStart: a.segmentStart, segmentFrom: a.segmentFrom, segmentTo: a.segmentTo,
    segmentLength: a.segmentLength, segmentFlags: a.segmentFlags, segmentWay: a.segmentWay, wayName: a.wayName, wayRef: a.wayRef,
    wayClass: a.wayClass, wayMaxspeed: a.wayMaxspeed, wayOsmId: a.wayOsmId, vertexPoint: a.vertexPoint, strings: (meta as { strings: string[] }).strings,
  };
  return { network, index: storedIndex(arrays, (meta as { index?: StoredIndexMeta }).index) };
}

/** Mode files this reader knows: 1 edge-based only, 2 with its GraphKind in `graph` (network-files.ts). */
const MODE_FILE_VERSIONS = [1, 2];

export function readModeGraph(dir: string, mode: RouterMode): ModeGraph {
  const file = path.join(dir, `${mode}.bin`);
  return modeGraphOf(decodeArrays(fs.readFileSync(file)), file).graph;
}

/** The mode's graph, and its tables when the file holds them (mode files written since the tables were stored). */
function modeGraphOf({ meta, arrays }: DecodedArrays, file: string): { graph: ModeGraph; tables: ModeTables | undefined } {
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
  const modeGraph: ModeGraph = {
    kind: graph === 'node' ? 'node' : 'edge',
    vertexCount: (meta as { vertexCount: number }).vertexCount, arcTail: a.arcTail, arcHead: a.arcHead,
    // Files written before arcSeconds existed had no routing penalties: their weights are the times.
    arcWeight: a.arcWeight, arcDistance: a.arcDistance, arcSeconds: a.arcSeconds ?? a.arcWeight, segmentForward: a.segmentForward,
    segmentBackward: a.segmentBackward, segmentMain: a.segmentMain, hierarchy, duplicateOf: a.duplicateOf as Uint32Array | undefined,
    ratePercent: a.ratePercent !== undefined && a.ratePercent.length > 0 ? (a.ratePercent as Uint8Array) : undefined,
  };
  return { graph: modeGraph, tables: storedModeTables(arrays, (meta as { tables?: StoredModeTablesMeta }).tables) };
}

/** Mode files left open by networks the gateway let go without release() (tests, tools): closed when collected. */
const unreleased = new FinalizationRegistry<Map<RouterMode, number>>((open) => {
  for (const fd of open.values()) fs.closeSync(fd);
});

const opened = (file: string): Promise<number> =>
  new Promise((resolve, reject) => fs.open(file, 'r', (err, fd) => (err ? reject(err) : resolve(fd))));

/**
 * Opens the four mode files (a missing one fails the load): a re-import renames the folder away (and
 * deletes it) before the gateway looks again, and a mode read later by path would pair the new import's
 * graph with this network. Read from the open file, it comes from the import its network came from.
 */
async function openModeFiles(dir: string): Promise<Map<RouterMode, number>> {
  const fds = new Map<RouterMode, number>();
  try {
    for (const mode of MODES) {
      try {
        fds.set(mode, await opened(path.join(dir, `${mode}.bin`)));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(`routing file ${mode}.bin is missing in ${dir}`);
        throw err;
      }
    }
  } catch (err) {
    for (const fd of fds.values()) fs.closeSync(fd);
    throw err;
  }
  return fds;
}

/** A network and its index, with its mode files open and each mode's graph read on first use. */
function networkWithModes(extract: string, bbox: [number, number, number, number], dir: string, network: Network, index: SegmentIndex, open: Map<RouterMode, number>): LoadedNetwork {
  const made: Partial<Record<RouterMode, ModeRouter>> = {};
  // One workspace for the four modes' searches (they run one at a time): its size is the largest mode's
  // vertex count, not the sum, and only what searches reach is made resident.
  const workspace = new SearchWorkspace();
  const reading: Partial<Record<RouterMode, Promise<ModeRouter>>> = {};
  let released = false;
  const fdOf = (mode: RouterMode): number => {
    const fd = open.get(mode);
    if (released || fd === undefined) throw new Error(`the ${mode} graph of ${extract} was let go (the extract was re-imported or removed)`);
    return fd;
  };
  const closeFile = (mode: RouterMode): void => {
    const fd = open.get(mode);
    if (fd !== undefined) fs.closeSync(fd);
    open.delete(mode);
  };
  const goneIfReleased = (mode: RouterMode): void => {
    if (released) throw new Error(`the ${mode} graph of ${extract} was let go (the extract was re-imported or removed)`);
  };
  const done = (mode: RouterMode, { graph, tables }: { graph: ModeGraph; tables: ModeTables | undefined }): ModeRouter => {
    closeFile(mode);
    goneIfReleased(mode);
    return (made[mode] = new ModeRouter(network, graph, index, TRAVEL_MODE[mode], tables, workspace));
  };
  // The gateway's way: the file read in large reads; tables the file lacks (written before they were
  // stored) built in slices between other requests.
  const doneInSlices = async (mode: RouterMode, { graph, tables: stored }: { graph: ModeGraph; tables: ModeTables | undefined }): Promise<ModeRouter> => {
    closeFile(mode);
    goneIfReleased(mode);
    const tables = stored ?? (await inSlices(modeTables(network, graph)));
    goneIfReleased(mode);
    return (made[mode] = new ModeRouter(network, graph, index, TRAVEL_MODE[mode], tables, workspace));
  };
  const file = (mode: RouterMode): string => path.join(dir, `${mode}.bin`);
  const routers = {} as Record<RouterMode, ModeRouter>;
  for (const mode of MODES) {
    Object.defineProperty(routers, mode, {
      enumerable: true,
      get: () => {
        const ready = made[mode];
        if (ready) return ready;
        if (reading[mode]) throw new Error(`the ${mode} graph of ${extract} is being read`);
        // The file was opened at load and not read since, so reading it from its position reads all of it.
        const fd = fdOf(mode);
        let graph: ReturnType<typeof modeGraphOf>;
        try {
          graph = modeGraphOf(decodeArrays(fs.readFileSync(fd)), file(mode));
        } catch (err) {
          fs.closeSync(fd);
          open.delete(mode);
          throw err;
        }
        return done(mode, graph);
      },
    });
  }
  const loaded: LoadedNetwork = {
    extract, bbox, network, routers,
    ready: (mode) => made[mode],
    mode: (mode) => {
      const ready = made[mode];
      if (ready) return Promise.resolve(ready);
      // Asked again while its tables are built: the file is closed by then, the read shared.
      const pending = reading[mode];
      if (pending) return pending;
      const fd = fdOf(mode);
      return (reading[mode] = readArrays(fd).then(
        (arrays) => doneInSlices(mode, modeGraphOf(arrays, file(mode))),
        (err: unknown) => {
          if (open.delete(mode)) fs.closeSync(fd);
          delete reading[mode];
          throw err;
        },
      ));
    },
    modesRead: () => MODES.filter((mode) => made[mode] !== undefined),
    release: () => {
      released = true;
      unreleased.unregister(loaded);
      // A mode being read keeps its descriptor until the read ends (done() closes it then).
      for (const [mode, fd] of open) {
        if (reading[mode]) continue;
        fs.closeSync(fd);
        open.delete(mode);
      }
      // Nothing of the graphs stays reachable through this network: a caller still holding it (a
      // re-import reads the new modes while its old network is in scope) must not keep them in memory.
      for (const mode of MODES) {
        delete made[mode];
        delete reading[mode];
      }
    },
  };
  unreleased.register(loaded, open, loaded);
  return loaded;
}

/**
 * The network and its index at once, the car's graph too (the default mode, and a bad file shows at
 * load rather than on a request); the other modes' graphs on their first request. Blocking: tools and
 * tests; the gateway opens networks with `openNetwork`.
 */
export function loadNetwork(extract: string, extractDir: string, bbox: [number, number, number, number]): LoadedNetwork | null {
  const dir = path.join(extractDir, ROUTING_STAGE);
  if (!fs.existsSync(path.join(dir, 'network.bin'))) return null;
  const open = new Map<RouterMode, number>();
  for (const mode of MODES) {
    try {
      open.set(mode, fs.openSync(path.join(dir, `${mode}.bin`), 'r'));
    } catch (err) {
      for (const fd of open.values()) fs.closeSync(fd);
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(`routing file ${mode}.bin is missing in ${dir}`);
      throw err;
    }
  }
  let loaded: LoadedNetwork;
  try {
    const { network, index } = networkOf(decodeArrays(fs.readFileSync(path.join(dir, 'network.bin'))));
    loaded = networkWithModes(extract, bbox, dir, network, new SegmentIndex(network, index), open);
  } catch (err) {
    for (const fd of open.values()) fs.closeSync(fd);
    throw err;
  }
  try {
    void loaded.routers.car;
  } catch (err) {
    loaded.release();
    throw err;
  }
  return loaded;
}

/**
 * The gateway's load: the network file read and its index built without blocking the thread (large
 * reads, then the index built in slices of a few ms between other work: in-slices.ts); no mode's graph is
 * read (`mode()` reads them, and builds their tables the same way). Null when the extract has no routing files.
 */
export async function openNetwork(extract: string, extractDir: string, bbox: [number, number, number, number]): Promise<LoadedNetwork | null> {
  const dir = path.join(extractDir, ROUTING_STAGE);
  let networkFd: number;
  try {
    networkFd = await opened(path.join(dir, 'network.bin'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  let open: Map<RouterMode, number>;
  let read: ReturnType<typeof networkOf>;
  try {
    open = await openModeFiles(dir);
    try {
      read = networkOf(await readArrays(networkFd));
    } catch (err) {
      for (const fd of open.values()) fs.closeSync(fd);
      throw err;
    }
  } finally {
    fs.closeSync(networkFd);
  }
  try {
    // Files written before the index was stored have it built here, in slices.
    const { network } = read;
    const index = new SegmentIndex(network, read.index ?? (await inSlices(segmentIndexTables(network))));
    return networkWithModes(extract, bbox, dir, network, index, open);
  } catch (err) {
    for (const fd of open.values()) fs.closeSync(fd);
    throw err;
  }
}
