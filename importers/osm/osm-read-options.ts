// What a read of OSM files takes and gives, shared by the single-file reader and the merged one
// (osm-reader.ts dispatches to merged-osm-reader.ts, which must not import it back).
import type { OsmCompression, OsmFormat } from './osm-input';
import type { BlockCounts } from './pbf-primitive-block';

export interface ReadOptions {
  signal?: AbortSignal;
  /** Called now and then with the file bytes read so far and the counts of entities visited. */
  onProgress?(bytesRead: number, totalBytes: number, counts: BlockCounts): void;
}

export interface ReadResult extends BlockCounts {
  format: OsmFormat;
  compression: OsmCompression;
}
