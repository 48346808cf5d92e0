// One pass over an OSM extract: entities to a visitor, in file order, with the kinds the visitor wants.
// Several files are read as one merged, sorted extract (merged-osm-reader.ts).
import { readMergedOsm } from './merged-osm-reader';
import type { ReadOptions, ReadResult } from './osm-read-options';
import { openOsmInput } from './osm-input';
import { OsmFormatError, type OsmVisitor } from './osm-visitor';
import { readHeaderBlock } from './pbf-header-block';
import { visitBlock, kindsOf } from './pbf-block-visit';
import { BlockDecodeError, decodedBlocks, decodeThreadsFor } from './pbf-decode-pool';
import type { BlockCounts } from './pbf-primitive-block';
import { readOsmXml } from './osm-xml';

export type { ReadOptions, ReadResult } from './osm-read-options';

export async function readOsm(files: string | readonly string[], visitor: OsmVisitor, options: ReadOptions = {}): Promise<ReadResult> {
  if (typeof files !== 'string' && files.length !== 1) {
    if (files.length === 0) throw new Error('readOsm needs at least one file');
    return readMergedOsm(files, visitor, options);
  }
  const file = typeof files === 'string' ? files : files[0];
  const input = await openOsmInput(file);
  const counts: BlockCounts = { nodes: 0, ways: 0, relations: 0 };
  let bounds: [number, number, number, number] | undefined;
  const report = (): void => options.onProgress?.(input.bytesRead(), input.totalBytes, counts);
  try {
    if (input.format === 'xml') {
      let last = 0;
      const progressing = (async function* () {
        for await (const chunk of input.chunks) {
          yield chunk;
          const now = input.bytesRead();
          if (now - last >= 1 << 20) {
            last = now;
            report();
          }
        }
      })();
      await readOsmXml(progressing, visitor, counts, options.signal);
    } else {
      let first = true;
      const threads = options.decodeThreads ?? decodeThreadsFor(input.totalBytes);
      try {
        for await (const block of decodedBlocks(input.chunks, kindsOf(visitor), threads, options.startDecodeWorker)) {
          if (options.signal?.aborted) throw options.signal.reason;
          if (first) {
            if (block.type !== 'OSMHeader') throw new OsmFormatError('not an OSM PBF file: it does not start with an OSMHeader block');
            bounds = readHeaderBlock(block.data).bbox;
            first = false;
            continue;
          }
          // Unknown block types are skipped, as the format asks.
          if (block.type !== 'OSMData') continue;
          visitBlock(block.columns, visitor, counts);
          report();
        }
      } catch (err) {
        if (err instanceof BlockDecodeError) throw new OsmFormatError(`corrupt PBF file: the block at byte ${err.offset} does not decode (${err.message})`);
        throw err;
      }
      if (first) throw new OsmFormatError('not an OSM PBF file: no OSMHeader block');
    }
    report();
    return { ...counts, format: input.format, compression: input.compression, ...(bounds ? { bounds } : {}) };
  } finally {
    input.close();
  }
}
