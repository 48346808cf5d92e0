// What a read of OSM files takes and gives, shared by the single-file reader and the merged one
// (osm-reader.ts dispatches to merged-osm-reader.ts, which must not import it back).
import type { OsmCompression, OsmFormat } from './osm-input';
import type { Worker } from 'node:worker_threads';
import type { BlockCounts } from './pbf-primitive-block';

export interface ReadOptions {
  signal?: AbortSignal;
  /** Called now and then with the file bytes read so far and the counts of entities visited. */
  onProgress?(bytesRead: number, totalBytes: number, counts: BlockCounts): void;
  /**
   * Threads decoding PBF blocks ahead of the visitor (pbf-decode-pool.ts); 0 decodes on the reading
   * thread. Default: one fewer than the cores (at most 3) for a file of 4 MiB or more, else 0.
   */
  decodeThreads?: number;
  /** Starts one decoding thread; default the compiled worker (tests start the TypeScript source). */
  startDecodeWorker?(): Worker;
}

export interface ReadResult extends BlockCounts {
  format: OsmFormat;
  compression: OsmCompression;
  /** The box a PBF file's header declares (the extract's cut), [west, south, east, north]; absent otherwise. */
  bounds?: [number, number, number, number];
}
