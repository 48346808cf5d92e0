import fs from 'node:fs';
import path from 'node:path';
import { flagEmoji } from '../../../core/facts/iso-countries';
import type { Region } from '../../../ports/regions';
import { regionId } from '../region-id';
import { boundaryDirectory, parseBoundaryFile } from '../../../core/formats/boundaries/boundary-file';
import { PolygonLayer } from './polygon-layer';

export interface ImportedLayers {
  layers: Map<string, PolygonLayer<Region>>;
  /** Files that could not be used, with why; the rest still load. */
  skippedFiles: Array<{ file: string; reason: string }>;
}

export function importedRegion(type: string, code: string, name: string): Region {
  const flag = type === 'country' ? flagEmoji(code) : undefined;
  const region: Region = { _id: regionId(type, code), type, name, code };
  if (flag !== undefined) region.flag = flag;
  return Object.freeze(region);
}

/** Every `<dataDir>/regions/*.json` written by the importer, one layer per region type. */
export function loadImportedLayers(dataDir: string | undefined): ImportedLayers {
  const result: ImportedLayers = { layers: new Map(), skippedFiles: [] };
  if (dataDir === undefined) return result;
  const dir = boundaryDirectory(dataDir);
  if (!fs.existsSync(dir)) return result;
  // Sorted so that the result does not depend on directory order.
  const names = fs.readdirSync(dir).filter((n) => n.endsWith('.json') && !n.startsWith('.')).sort();
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      const boundary = parseBoundaryFile(fs.readFileSync(file, 'utf8'), file);
      if (`${boundary.type}.json` !== name) throw new Error(`${file}: holds type ${boundary.type}, expected ${name.slice(0, -5)}`);
      const layer = new PolygonLayer(
        boundary.features.map((f) => ({ value: importedRegion(boundary.type, f.code, f.name), polygons: f.polygons })),
      );
      result.layers.set(boundary.type, layer);
    } catch (err) {
      result.skippedFiles.push({ file, reason: (err as Error).message });
    }
  }
  return result;
}
