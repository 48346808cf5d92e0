import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { feature as topologyFeature } from 'topojson-client';
import type { Topology } from 'topojson-specification';
import {
  BOUNDARY_FILE_FORMAT,
  BOUNDARY_FILE_VERSION,
  boundaryFilePath,
  isValidRegionType,
  type BoundaryFeature,
  type BoundaryFile,
} from '../../core/formats/boundaries/boundary-file';

export interface ImportBoundariesOptions {
  /** A GeoJSON FeatureCollection of Polygon / MultiPolygon features, or a TopoJSON Topology. */
  file: string;
  /** For TopoJSON: the object to read; default the first one. */
  object?: string;
  /** Region type the features become: `dma`, `county`, ... (`country`, `state`, `postalCode` override the bundled data where they have polygons). */
  type: string;
  /** Property holding the region name; default: the first of name, NAME, Name, <type>_name. Missing name → the code. */
  nameProperty?: string;
  /** Property holding the region code; default: the first of code, CODE, Code, <type>_code, id, then the feature's `id`. */
  codeProperty?: string;
  /** Data directory; the result goes to `<dataDir>/regions/<type>.json`. */
  dataDir: string;
  onProgress?: (done: number, total: number) => void;
}

export interface ImportBoundariesResult {
  imported: number;
  skipped: Array<{ index: number; reason: string }>;
}

/** Coordinates are rounded to 1e-7° (about 1 cm): enough for any boundary, and byte-stable output. */
const COORDINATE_SCALE = 1e7;
const PROGRESS_EVERY = 50;

/**
 * Reads a GeoJSON boundary file and writes the normalised file the embedded Regions
 * adapter loads. Features that cannot be used are skipped with a reason; features
 * sharing a code are merged into one region. The output replaces any previous import
 * of the same type atomically. Its bytes depend only on the input and options.
 */
export async function importBoundaries(opts: ImportBoundariesOptions): Promise<ImportBoundariesResult> {
  if (!isValidRegionType(opts.type)) {
    throw new Error(`type ${JSON.stringify(opts.type)} must be letters, digits, _ or -, starting with a letter`);
  }
  const raw = await fs.promises.readFile(opts.file);
  let data: unknown;
  try {
    data = JSON.parse(raw.toString('utf8'));
  } catch (err) {
    throw new Error(`${opts.file} is not JSON: ${(err as Error).message}`);
  }
  const features = featuresOf(data, opts);
  const total = features.length;
  const skipped: ImportBoundariesResult['skipped'] = [];
  const byCode = new Map<string, BoundaryFeature>();

  features.forEach((value, index) => {
    const outcome = normaliseFeature(value, opts);
    if (typeof outcome === 'string') {
      skipped.push({ index, reason: outcome });
    } else {
      const existing = byCode.get(outcome.code);
      if (existing === undefined) byCode.set(outcome.code, outcome);
      else existing.polygons.push(...outcome.polygons);
    }
    if (opts.onProgress !== undefined && ((index + 1) % PROGRESS_EVERY === 0 || index + 1 === total)) {
      opts.onProgress(index + 1, total);
    }
  });
  if (total === 0) opts.onProgress?.(0, 0);

  const out: BoundaryFile = {
    format: BOUNDARY_FILE_FORMAT,
    version: BOUNDARY_FILE_VERSION,
    type: opts.type,
    source: { file: path.basename(opts.file), sha256: createHash('sha256').update(raw).digest('hex') },
    features: [...byCode.values()].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0)),
  };
  const target = boundaryFilePath(opts.dataDir, opts.type);
  await fs.promises.mkdir(path.dirname(target), { recursive: true });
  // Written beside the target and renamed, so a running server never reads half a file.
  const temporary = path.join(path.dirname(target), `.${opts.type}.${process.pid}.tmp`);
  await fs.promises.writeFile(temporary, JSON.stringify(out));
  await fs.promises.rename(temporary, target);
  return { imported: out.features.length, skipped };
}

function featuresOf(data: unknown, opts: ImportBoundariesOptions): unknown[] {
  const top = (data ?? {}) as { type?: unknown; features?: unknown; objects?: unknown };
  if (top.type === 'FeatureCollection' && Array.isArray(top.features)) return top.features;
  if (top.type === 'Topology' && top.objects !== null && typeof top.objects === 'object') {
    const topology = data as Topology;
    const name = opts.object ?? Object.keys(topology.objects)[0];
    const object = name === undefined ? undefined : topology.objects[name];
    if (object === undefined) throw new Error(`${opts.file} has no TopoJSON object ${String(name)}`);
    const converted = topologyFeature(topology, object);
    return 'features' in converted ? converted.features : [converted];
  }
  throw new Error(`${opts.file} is neither a GeoJSON FeatureCollection nor a TopoJSON Topology`);
}

/** A usable feature, or why not. */
function normaliseFeature(value: unknown, opts: ImportBoundariesOptions): BoundaryFeature | string {
  if (value === null || typeof value !== 'object') return 'not a GeoJSON Feature';
  const feature = value as { type?: unknown; id?: unknown; properties?: unknown; geometry?: unknown };
  if (feature.type !== 'Feature') return 'not a GeoJSON Feature';
  const properties = (feature.properties !== null && typeof feature.properties === 'object' ? feature.properties : {}) as Record<string, unknown>;

  const code = opts.codeProperty !== undefined
    ? scalarText(properties[opts.codeProperty])
    : firstText(properties, ['code', 'CODE', 'Code', `${opts.type}_code`, 'id']) ?? scalarText(feature.id);
  if (code === undefined) return opts.codeProperty !== undefined ? `no ${opts.codeProperty} property` : 'no code property (pass --code-property)';
  const name = (opts.nameProperty !== undefined
    ? scalarText(properties[opts.nameProperty])
    : firstText(properties, ['name', 'NAME', 'Name', `${opts.type}_name`])) ?? code;

  const geometry = feature.geometry as { type?: unknown; coordinates?: unknown } | null | undefined;
  if (geometry === null || geometry === undefined || typeof geometry !== 'object') return 'no geometry';
  let rawPolygons: unknown[];
  if (geometry.type === 'Polygon') rawPolygons = [geometry.coordinates];
  else if (geometry.type === 'MultiPolygon' && Array.isArray(geometry.coordinates)) rawPolygons = geometry.coordinates;
  else return `geometry ${String(geometry.type)} is not Polygon or MultiPolygon`;

  const polygons: number[][][][] = [];
  let problem: string | undefined;
  for (const rawPolygon of rawPolygons) {
    const polygon = normalisePolygon(rawPolygon);
    if (typeof polygon === 'string') problem ??= polygon;
    else polygons.push(polygon);
  }
  if (polygons.length === 0) return problem ?? 'no polygons';
  return { code, name, polygons };
}

/** Rings rounded, de-duplicated and closed; an unusable outer ring drops the polygon, an unusable hole is dropped alone. */
function normalisePolygon(value: unknown): number[][][] | string {
  if (!Array.isArray(value) || value.length === 0) return 'polygon without rings';
  const rings: number[][][] = [];
  for (let r = 0; r < value.length; r++) {
    const ring = normaliseRing(value[r]);
    if (typeof ring === 'string') {
      if (r === 0) return `outer ring: ${ring}`;
      continue;
    }
    rings.push(ring);
  }
  return rings;
}

function normaliseRing(value: unknown): number[][] | string {
  if (!Array.isArray(value)) return 'ring is not an array';
  const ring: number[][] = [];
  for (const position of value) {
    if (!Array.isArray(position) || position.length < 2) return 'position is not [longitude, latitude]';
    const lng = position[0], lat = position[1];
    if (typeof lng !== 'number' || typeof lat !== 'number' || !Number.isFinite(lng) || !Number.isFinite(lat)) {
      return 'position is not [longitude, latitude]';
    }
    if (Math.abs(lng) > 180 || Math.abs(lat) > 90) return `position ${lng},${lat} is out of range (is it projected, or [lat, lng]?)`;
    const x = Math.round(lng * COORDINATE_SCALE) / COORDINATE_SCALE;
    const y = Math.round(lat * COORDINATE_SCALE) / COORDINATE_SCALE;
    const last = ring[ring.length - 1];
    if (last === undefined || last[0] !== x || last[1] !== y) ring.push([x, y]);
  }
  if (ring.length > 0 && (ring[0][0] !== ring[ring.length - 1][0] || ring[0][1] !== ring[ring.length - 1][1])) ring.push([ring[0][0], ring[0][1]]);
  if (ring.length < 4) return 'ring has fewer than 3 distinct positions';
  return ring;
}

function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

function firstText(properties: Record<string, unknown>, keys: string[]): string | undefined {
  for (const key of keys) {
    const text = scalarText(properties[key]);
    if (text !== undefined) return text;
  }
  return undefined;
}
