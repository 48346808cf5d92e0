// Builds a places extract from OSM entities given in code, through the real places stage, into
// <dataDir>/extracts/<name>/ with a manifest: what `waymark data import` leaves, for tests that must
// not depend on an OSM file. Coordinates are [lng, lat].
import fs from 'node:fs';
import path from 'node:path';
import { MANIFEST_FILE, MANIFEST_FORMAT, MANIFEST_VERSION, extractDir, type ExtractManifest } from '../../core/formats/extract-layout';
import type { NodeCoordinates, OsmNode, OsmRelation, OsmTags, OsmWay, StageSummary } from '../../importers/osm/stage';
import { PlacesStage, type PlacesStageOptions } from '../../importers/osm/stages/places/places-stage';

export interface TestEntities {
  nodes: Array<{ id: number; at: [number, number]; tags?: Record<string, string> }>;
  ways?: Array<{ id: number; refs: number[]; tags: Record<string, string> }>;
  relations?: Array<{ id: number; members: OsmRelation['members']; tags: Record<string, string> }>;
}

export function nodeCoordinates(nodes: TestEntities['nodes']): NodeCoordinates {
  const at = new Map(nodes.map((n, i) => [n.id, i]));
  return {
    size: nodes.length,
    indexOf: (id) => at.get(id) ?? -1,
    lonAt: (i) => nodes[i].at[0],
    latAt: (i) => nodes[i].at[1],
  };
}

/** A closed square way's corner nodes around a centre, `halfM` metres from it on each side. */
export function square(firstId: number, center: [number, number], halfM: number): { nodes: TestEntities['nodes']; refs: number[] } {
  const dLat = halfM / 111_195;
  const dLng = halfM / (111_195 * Math.cos((center[1] * Math.PI) / 180));
  const corners: Array<[number, number]> = [
    [center[0] - dLng, center[1] - dLat], [center[0] + dLng, center[1] - dLat], [center[0] + dLng, center[1] + dLat], [center[0] - dLng, center[1] + dLat],
  ];
  const nodes = corners.map((c, i) => ({ id: firstId + i, at: c }));
  return { nodes, refs: [...nodes.map((n) => n.id), firstId] };
}

export async function runPlacesStage(entities: TestEntities, dir: string, options: PlacesStageOptions = {}, extract = 'test'): Promise<StageSummary> {
  const stage = new PlacesStage(options);
  const coords = nodeCoordinates(entities.nodes);
  for (const r of entities.relations ?? []) stage.relation({ id: r.id, members: r.members, tags: r.tags as OsmTags });
  for (const n of entities.nodes) stage.node({ id: n.id, lon: n.at[0], lat: n.at[1], tags: (n.tags as OsmTags | undefined) ?? null } satisfies OsmNode);
  for (const w of entities.ways ?? []) stage.way({ id: w.id, refs: w.refs, tags: w.tags as OsmTags } satisfies OsmWay, coords);
  fs.mkdirSync(dir, { recursive: true });
  return stage.finish({ extract, dir, nodes: coords, bounds: [-180, -90, 180, 90], releaseNodes: () => undefined, progress: () => undefined });
}

/** Runs the stage into <dataDir>/extracts/<name>/places/ and writes the manifest last, as an import does. */
export async function writePlacesExtract(dataDir: string, name: string, entities: TestEntities, options: PlacesStageOptions = {}): Promise<StageSummary> {
  const root = extractDir(dataDir, name);
  const summary = await runPlacesStage(entities, path.join(root, 'places'), options, name);
  const manifest: ExtractManifest = {
    format: MANIFEST_FORMAT, version: MANIFEST_VERSION, name, source: 'test entities', importedAt: new Date().toISOString(),
    bbox: [-180, -90, 180, 90], stages: { places: summary },
  };
  fs.writeFileSync(path.join(root, MANIFEST_FILE), JSON.stringify(manifest));
  return summary;
}
