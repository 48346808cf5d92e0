// Where imported extracts live in the data directory, and the manifest that marks one complete.
//
//   <dataDir>/extracts/<name>/extract.json        the manifest, written last
//   <dataDir>/extracts/<name>/<stage>/…           each stage's own files (routing/, geocoding/, places/)
//   <dataDir>/extracts/.staging-<name>-<pid>/     an import in progress; renamed over <name> when done
//
// Readers (router, geocoder, places) load `<name>/<stage>/` of every extract whose manifest exists,
// and reload when the set of manifests changes: a re-import swaps a whole folder at once, so a reader
// never sees half an import.
import path from 'node:path';

export const EXTRACTS_FOLDER = 'extracts';
export const MANIFEST_FILE = 'extract.json';
export const MANIFEST_FORMAT = 'waymark-extract';
export const MANIFEST_VERSION = 1;

/** Extract names become folder names: a conservative alphabet, no dots (the staging prefix starts with one). */
export const EXTRACT_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

export interface ExtractManifest {
  format: typeof MANIFEST_FORMAT;
  version: typeof MANIFEST_VERSION;
  name: string;
  /** The file or URL it was imported from. */
  source: string;
  importedAt: string;
  /** [west, south, east, north] of the extract's nodes. */
  bbox: [number, number, number, number];
  /**
   * The box the file says it covers (a PBF header's bounding box: a Geofabrik extract's clip), which
   * the nodes' box overstates where ways were completed past the clip. Absent when the file says none
   * (OSM XML, several files read as one region, older manifests).
   */
  coverage?: [number, number, number, number];
  /** Stage name → its summary, for `waymark data list`. */
  stages: Record<string, Record<string, number | string>>;
  /** What the import read and what it cost (added with the pipeline; absent in older manifests). */
  import?: ImportFacts;
}

export interface ImportFacts {
  format: 'pbf' | 'xml';
  compression: 'none' | 'gzip' | 'bzip2';
  nodes: number;
  ways: number;
  relations: number;
  seconds: number;
  /** Peak resident memory of the importing process, bytes. */
  peakMemoryBytes: number;
}

export function extractsDir(dataDir: string): string {
  return path.join(dataDir, EXTRACTS_FOLDER);
}

export function extractDir(dataDir: string, name: string): string {
  return path.join(extractsDir(dataDir), name);
}

export function stageDir(dataDir: string, name: string, stage: string): string {
  return path.join(extractDir(dataDir, name), stage);
}
