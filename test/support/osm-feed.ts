// Feeds an OSM PBF extract to one import stage in the pipeline's order (relations, nodes, ways, finish)
// as data/osm/stage.ts describes, so a stage can be tested on the shared extracts on its own. The
// parser is tiny-osmpbf (a dev dependency); `waymark data import` has its own streaming reader.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ImportStage, NodeCoordinates, OsmMemberType, StageSummary } from '../../data/osm/stage';

export interface PbfElement {
  type: 'node' | 'way' | 'relation';
  id: number;
  lat?: number;
  lon?: number;
  nodes?: number[];
  members?: Array<{ type: OsmMemberType; ref: number; role: string }>;
  tags?: Record<string, string>;
}

// tiny-osmpbf ships no types; this is the part of its answer we read.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const parsePbf = require('tiny-osmpbf') as (buffer: Buffer) => { elements: PbfElement[] };

export async function feedExtract(file: string, stage: ImportStage, dir: string, extract = 'test'): Promise<StageSummary> {
  return feedElements(parsePbf(fs.readFileSync(file)).elements, stage, dir, extract);
}

/** OSM-JSON-like elements (as tiny-osmpbf gives them, or written by a test) fed in pipeline order. */
export async function feedElements(elements: readonly PbfElement[], stage: ImportStage, dir: string, extract = 'test'): Promise<StageSummary> {
  const ids: number[] = [];
  const lons: number[] = [];
  const lats: number[] = [];
  const index = new Map<number, number>();
  for (const e of elements) {
    if (e.type !== 'node') continue;
    index.set(e.id, ids.length);
    ids.push(e.id);
    lons.push(e.lon!);
    lats.push(e.lat!);
  }
  const nodes: NodeCoordinates = {
    size: ids.length,
    indexOf: (id) => index.get(id) ?? -1,
    lonAt: (i) => lons[i],
    latAt: (i) => lats[i],
  };
  const tags = (t: Record<string, string> | undefined) => Object.freeze({ ...(t ?? {}) });
  if (stage.relation) for (const e of elements) if (e.type === 'relation') stage.relation({ id: e.id, members: e.members ?? [], tags: tags(e.tags) });
  if (stage.node) {
    for (const e of elements) {
      if (e.type === 'node') stage.node({ id: e.id, lon: e.lon!, lat: e.lat!, tags: e.tags && Object.keys(e.tags).length ? tags(e.tags) : null });
    }
  }
  if (stage.way) for (const e of elements) if (e.type === 'way') stage.way({ id: e.id, refs: e.nodes ?? [], tags: tags(e.tags) }, nodes);
  fs.mkdirSync(dir, { recursive: true });
  return stage.finish({ extract, dir, nodes, progress: () => undefined });
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}
