// What a router derives from the routing files before it answers (the snapping index of the network, each
// mode's tables: mode-tables.ts), stored in the files themselves by the import, so a gateway starting on a
// region reads them instead of computing them: on Baltimore ×20 that was seconds of CPU per file before the
// first route. Each set carries the version of its builder: tables written by another version of
// `segmentIndexTables` or `modeTables` are ignored and built anew, so a change to either cannot serve stale
// tables. Files without them (written before) are read as before, their tables built at load.
import type { ModeTables } from '../../routing/mode-tables';
import type { SegmentIndexTables } from '../../routing/segment-index';

/** Bump when segmentIndexTables changes what it builds. */
export const INDEX_TABLES_VERSION = 1;
/** Bump when modeTables changes what it builds. */
export const MODE_TABLES_VERSION = 1;

type Arrays = Record<string, Float32Array | Uint32Array | Uint16Array>;

export interface StoredIndexMeta {
  version: number;
  west: number;
  south: number;
  cols: number;
  rows: number;
}

export function indexArrays(t: SegmentIndexTables): { arrays: Arrays; meta: StoredIndexMeta } {
  return {
    arrays: { indexCellFirst: t.cellFirst, indexCellItems: t.cellItems, indexPieceSegment: t.pieceSegment, indexPointAlong: t.pointAlong },
    meta: { version: INDEX_TABLES_VERSION, west: t.west, south: t.south, cols: t.cols, rows: t.rows },
  };
}

/** The stored index, or undefined when the file has none of this version. */
export function storedIndex(arrays: Record<string, unknown>, meta: StoredIndexMeta | undefined): SegmentIndexTables | undefined {
  if (meta?.version !== INDEX_TABLES_VERSION || arrays.indexCellFirst === undefined) return undefined;
  return {
    west: meta.west, south: meta.south, cols: meta.cols, rows: meta.rows,
    cellFirst: arrays.indexCellFirst as Uint32Array, cellItems: arrays.indexCellItems as Uint32Array,
    pieceSegment: arrays.indexPieceSegment as Uint32Array, pointAlong: arrays.indexPointAlong as Float32Array,
  };
}

export interface StoredModeTablesMeta {
  version: number;
  bigComponent: boolean;
}

export function modeTablesArrays(t: ModeTables): { arrays: Arrays; meta: StoredModeTablesMeta } {
  return {
    arrays: {
      tablesInFirst: t.inFirst, tablesInArc: t.inArc, tablesLeaveFirst: t.leaveFirst, tablesLeave: t.leave,
      tablesArriveFirst: t.arriveFirst, tablesArrive: t.arrive, tablesRoads: t.roads,
      ...(t.seconds ? { tablesSecondsForward: t.seconds.forward, tablesSecondsBackward: t.seconds.backward } : {}),
    },
    meta: { version: MODE_TABLES_VERSION, bigComponent: t.bigComponent },
  };
}

/** The stored tables, or undefined when the file has none of this version. */
export function storedModeTables(arrays: Record<string, unknown>, meta: StoredModeTablesMeta | undefined): ModeTables | undefined {
  if (meta?.version !== MODE_TABLES_VERSION || arrays.tablesInFirst === undefined) return undefined;
  const forward = arrays.tablesSecondsForward as Float32Array | undefined;
  const backward = arrays.tablesSecondsBackward as Float32Array | undefined;
  return {
    bigComponent: meta.bigComponent,
    inFirst: arrays.tablesInFirst as Uint32Array, inArc: arrays.tablesInArc as Uint32Array,
    leaveFirst: arrays.tablesLeaveFirst as Uint32Array, leave: arrays.tablesLeave as Uint32Array,
    arriveFirst: arrays.tablesArriveFirst as Uint32Array, arrive: arrays.tablesArrive as Uint32Array,
    roads: arrays.tablesRoads as Uint16Array,
    seconds: forward && backward ? { forward, backward } : null,
  };
}
