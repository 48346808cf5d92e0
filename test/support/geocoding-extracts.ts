// Imports OSM extracts with the real pipeline (`runImport`, as `waymark data import` does) and only the
// geocoding stage: the shared extract files, or a small town a test writes as OSM XML.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runImport } from '../../importers/osm/import-pipeline';
import type { StageSummary } from '../../importers/osm/stage';
import { GeocodingStage } from '../../importers/osm/stages/geocoding/geocoding-stage';
import { announceSkip, files } from './requires';

export const OSM_FIXTURES = path.resolve(__dirname, '../../../shared/fixtures/osm');

export function osmFixturesPresent(): boolean {
  if (fs.existsSync(OSM_FIXTURES)) return true;
  announceSkip('geocoding on the shared OSM extracts', files(OSM_FIXTURES));
  return false;
}

export type OsmElement =
  | { type: 'node'; id: number; lon: number; lat: number; tags?: Record<string, string> }
  | { type: 'way'; id: number; nodes: number[]; tags?: Record<string, string> }
  | { type: 'relation'; id: number; members: Array<{ type: 'node' | 'way' | 'relation'; ref: number; role: string }>; tags?: Record<string, string> };

/** Imports a shared extract file (by its name in fixtures/osm), or elements a test wrote, as extract `name`. */
export async function importGeocoding(dataDir: string, name: string, source: string | readonly OsmElement[]): Promise<StageSummary> {
  const file = typeof source === 'string' ? path.join(OSM_FIXTURES, source) : writeOsmXml(source);
  const result = await runImport({ file, name, dataDir, stages: [new GeocodingStage()] });
  return result.manifest.stages.geocoding;
}

function writeOsmXml(elements: readonly OsmElement[]): string {
  const esc = (v: string | number) => String(v).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
  const tags = (t: Record<string, string> = {}) => Object.entries(t).map(([k, v]) => `<tag k="${esc(k)}" v="${esc(v)}"/>`).join('');
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<osm version="0.6" generator="waymark-test">'];
  for (const e of elements) {
    if (e.type === 'node') lines.push(`<node id="${e.id}" lat="${e.lat}" lon="${e.lon}" version="1">${tags(e.tags)}</node>`);
  }
  for (const e of elements) {
    if (e.type === 'way') lines.push(`<way id="${e.id}" version="1">${e.nodes.map((n) => `<nd ref="${n}"/>`).join('')}${tags(e.tags)}</way>`);
  }
  for (const e of elements) {
    if (e.type === 'relation') lines.push(`<relation id="${e.id}" version="1">${e.members.map((m) => `<member type="${m.type}" ref="${m.ref}" role="${esc(m.role)}"/>`).join('')}${tags(e.tags)}</relation>`);
  }
  lines.push('</osm>');
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-osm-')), 'town.osm');
  fs.writeFileSync(file, lines.join('\n'));
  return file;
}
