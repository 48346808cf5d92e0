import path from 'node:path';

/**
 * The normalised boundary file the importer writes and the embedded adapter reads:
 * `<dataDir>/regions/<type>.json`, one file per region type (dma, county, ...).
 */
export const BOUNDARY_FILE_FORMAT = 'waymark-boundaries';
export const BOUNDARY_FILE_VERSION = 1;

export interface BoundaryFeature {
  code: string;
  name: string;
  /** GeoJSON MultiPolygon coordinates: polygons of rings of closed [lng, lat] rings. */
  polygons: number[][][][];
}

export interface BoundaryFile {
  format: typeof BOUNDARY_FILE_FORMAT;
  version: typeof BOUNDARY_FILE_VERSION;
  type: string;
  /** Where it came from: the source file's base name and SHA-256, so a rebuild is checkable. */
  source: { file: string; sha256: string };
  features: BoundaryFeature[];
}

/** Region types become file names and object keys: letters, digits, `_` and `-`, starting with a letter. */
export function isValidRegionType(type: string): boolean {
  return /^[A-Za-z][A-Za-z0-9_-]{0,63}$/.test(type);
}

export function boundaryDirectory(dataDir: string): string {
  return path.join(dataDir, 'regions');
}

export function boundaryFilePath(dataDir: string, type: string): string {
  if (!isValidRegionType(type)) throw new Error(`invalid region type ${JSON.stringify(type)}`);
  return path.join(boundaryDirectory(dataDir), `${type}.json`);
}

/** Parses and checks a boundary file; throws an Error naming `where` and the first problem. */
export function parseBoundaryFile(text: string, where: string): BoundaryFile {
  const fail = (why: string): never => {
    throw new Error(`${where}: ${why}`);
  };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    return fail(`not JSON (${(err as Error).message})`);
  }
  if (typeof data !== 'object' || data === null) return fail('not an object');
  const file = data as Partial<BoundaryFile>;
  if (file.format !== BOUNDARY_FILE_FORMAT) fail(`format is not ${BOUNDARY_FILE_FORMAT}`);
  if (file.version !== BOUNDARY_FILE_VERSION) fail(`unsupported version ${String(file.version)}`);
  if (typeof file.type !== 'string' || !isValidRegionType(file.type)) fail('missing or invalid type');
  if (!Array.isArray(file.features)) fail('features is not an array');
  (file.features as unknown[]).forEach((f, i) => {
    const feature = f as Partial<BoundaryFeature> | null;
    if (feature === null || typeof feature.code !== 'string' || typeof feature.name !== 'string' || !Array.isArray(feature.polygons)) {
      fail(`feature ${i} needs code, name and polygons`);
    }
  });
  return file as BoundaryFile;
}
