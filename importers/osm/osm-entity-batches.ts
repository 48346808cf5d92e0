// One OSM file read as batches of entities that the caller pulls (a PBF block, or what one chunk of
// XML held), instead of pushed to a visitor: several files can then be read side by side and merged
// (merged-osm-reader.ts). A batch is a PBF block's worth (about 8,000 entities), so a file being merged
// holds one block decoded at a time, plus the blocks pbf-blobs.ts inflates ahead.
import { openOsmInput, type OsmCompression, type OsmFormat } from './osm-input';
import { osmXmlParser } from './osm-xml';
import { OsmFormatError, type OsmVisitor } from './osm-visitor';
import { readHeaderBlock } from './pbf-header-block';
import { visitBlock } from './pbf-block-visit';
import { BlockDecodeError, decodedBlocks } from './pbf-decode-pool';
import type { BlockCounts, EntityKinds } from './pbf-primitive-block';
import type { OsmMember, OsmTags } from './stage';

/** Kinds in the order sorted files hold them: nodes, then ways, then relations. */
export const NODE = 0;
export const WAY = 1;
export const RELATION = 2;

export type OsmEntity =
  | { kind: typeof NODE; id: number; lon: number; lat: number; tags: OsmTags | null }
  /** `refs` is the entity's own copy (the PBF decoder reuses its buffer between ways). */
  | { kind: typeof WAY; id: number; refs: Float64Array; tags: OsmTags }
  | { kind: typeof RELATION; id: number; members: readonly OsmMember[]; tags: OsmTags };

export type { EntityKinds } from './pbf-primitive-block';

export interface EntityBatches {
  file: string;
  format: OsmFormat;
  compression: OsmCompression;
  batches: AsyncGenerator<OsmEntity[]>;
  bytesRead(): number;
  totalBytes: number;
  close(): void;
}

/** A visitor that appends the wanted kinds to `into.batch` (a fresh array after each hand-over). */
function collector(into: { batch: OsmEntity[] }, kinds: EntityKinds): OsmVisitor {
  const visitor: OsmVisitor = {};
  if (kinds.node) visitor.node = (id, lon, lat, tags) => void into.batch.push({ kind: NODE, id, lon, lat, tags });
  if (kinds.way) visitor.way = (w) => void into.batch.push({ kind: WAY, id: w.id, refs: Float64Array.from(w.refs), tags: w.tags });
  if (kinds.relation) visitor.relation = (r) => void into.batch.push({ kind: RELATION, id: r.id, members: r.members, tags: r.tags });
  return visitor;
}

export async function openEntityBatches(file: string, kinds: EntityKinds): Promise<EntityBatches> {
  const input = await openOsmInput(file);
  // Counted by the merge, which sees each entity once; the decoders want somewhere to count.
  const ignored: BlockCounts = { nodes: 0, ways: 0, relations: 0 };

  async function* pbf(): AsyncGenerator<OsmEntity[]> {
    let first = true;
    // Each file of a merge decodes on the reading thread: the merge compares entity by entity there.
    try {
      for await (const block of decodedBlocks(input.chunks, kinds, 0)) {
        if (first) {
          if (block.type !== 'OSMHeader') throw new OsmFormatError(`${file} is not an OSM PBF file: it does not start with an OSMHeader block`);
          readHeaderBlock(block.data);
          first = false;
          continue;
        }
        if (block.type !== 'OSMData') continue;
        const into = { batch: [] as OsmEntity[] };
        visitBlock(block.columns, collector(into, kinds), ignored);
        if (into.batch.length > 0) yield into.batch;
      }
    } catch (err) {
      if (err instanceof BlockDecodeError) throw new OsmFormatError(`corrupt PBF file ${file}: the block at byte ${err.offset} does not decode (${err.message})`);
      throw err;
    }
    if (first) throw new OsmFormatError(`${file} is not an OSM PBF file: no OSMHeader block`);
  }

  async function* xml(): AsyncGenerator<OsmEntity[]> {
    const into = { batch: [] as OsmEntity[] };
    const parser = osmXmlParser(collector(into, kinds), ignored);
    for await (const chunk of input.chunks) {
      parser.write(chunk);
      if (into.batch.length > 0) {
        yield into.batch;
        into.batch = [];
      }
    }
    parser.end();
    if (into.batch.length > 0) yield into.batch;
  }

  return {
    file,
    format: input.format,
    compression: input.compression,
    batches: input.format === 'pbf' ? pbf() : xml(),
    bytesRead: input.bytesRead,
    totalBytes: input.totalBytes,
    close: input.close,
  };
}
