// Imports shared OSM extracts' geocoding stage into a data directory, laid out as `waymark data import`
// lays them out (data/osm/extract-layout.ts), so the gateway's geocoder finds them. Returns the
// extracts that were found; a missing fixtures folder is reported once and yields none.
import fs from 'node:fs';
import path from 'node:path';
import { extractDir, MANIFEST_FILE, MANIFEST_FORMAT, MANIFEST_VERSION, stageDir, type ExtractManifest } from '../../data/osm/extract-layout';
import { GeocodingStage } from '../../data/osm/stages/geocoding/geocoding-stage';
import { feedElements, feedExtract, type PbfElement } from './osm-feed';

export const OSM_FIXTURES = path.resolve(__dirname, '../../../shared/fixtures/osm');

export function osmFixturesPresent(): boolean {
  if (fs.existsSync(OSM_FIXTURES)) return true;
  console.warn(`skipping: ${OSM_FIXTURES} is absent (shared OSM extracts)`);
  return false;
}

/** Imports a shared extract file, or elements a test wrote, as extract `name`. */
export async function importGeocoding(dataDir: string, name: string, source: string | readonly PbfElement[]): Promise<Record<string, number | string>> {
  const dir = stageDir(dataDir, name, 'geocoding');
  const summary = typeof source === 'string'
    ? await feedExtract(path.join(OSM_FIXTURES, source), new GeocodingStage(), dir, name)
    : await feedElements(source, new GeocodingStage(), dir, name);
  const file = typeof source === 'string' ? source : 'test elements';
  const manifest: ExtractManifest = {
    format: MANIFEST_FORMAT, version: MANIFEST_VERSION, name, source: file, importedAt: new Date().toISOString(),
    bbox: [-180, -90, 180, 90], stages: { geocoding: summary },
  };
  fs.writeFileSync(path.join(extractDir(dataDir, name), MANIFEST_FILE), JSON.stringify(manifest));
  return summary;
}
