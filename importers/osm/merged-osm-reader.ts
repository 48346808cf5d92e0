// Several OSM extracts read as one (`waymark data import a.osm.pbf b.osm.pbf --name region`): a k-way
// merge of files each sorted by type then id, as osmium writes them, so the visitor sees one sorted
// stream — every node before the first way — and an object held by several files (the overlap on the
// seam between two extracts) once, from the first file named that holds it. A way crossing the seam is
// complete in the merged stream even when each extract holds only its own side's nodes.
//
// Every file must be sorted: the merge cannot tell a duplicate from a misplaced object otherwise. An
// unsorted file is refused with how to sort it.
import { openEntityBatches, NODE, RELATION, WAY, type EntityBatches, type OsmEntity } from './osm-entity-batches';
import type { ReadOptions, ReadResult } from './osm-read-options';
import { OsmFormatError, type OsmVisitor } from './osm-visitor';
import type { BlockCounts } from './pbf-primitive-block';

const KIND_NAMES = ['node', 'way', 'relation'] as const;

/** One file's position in the merge: its current batch and the next entity in it. */
class Cursor {
  batch: OsmEntity[] = [];
  at = 0;
  private lastKind = -1;
  private lastId = -Infinity;

  constructor(readonly source: EntityBatches) {}

  get head(): OsmEntity | undefined {
    return this.batch[this.at];
  }

  /**
   * Moves to the next entity; false at the end. Synchronous within a batch (no promise per entity over
   * millions of them), a promise only when the next batch must be read.
   */
  advance(signal?: AbortSignal): boolean | Promise<boolean> {
    this.at++;
    if (this.at < this.batch.length) return this.check();
    return this.refill(signal);
  }

  private async refill(signal?: AbortSignal): Promise<boolean> {
    while (this.at >= this.batch.length) {
      if (signal?.aborted) throw signal.reason;
      const next = await this.source.batches.next();
      if (next.done) {
        this.batch = [];
        this.at = 0;
        return false;
      }
      this.batch = next.value;
      this.at = 0;
    }
    return this.check();
  }

  private check(): boolean {
    const e = this.batch[this.at];
    if (e.kind < this.lastKind || (e.kind === this.lastKind && e.id <= this.lastId)) {
      throw new OsmFormatError(
        `${this.source.file} is not sorted by type and id (${KIND_NAMES[e.kind]} ${e.id} comes after ${KIND_NAMES[this.lastKind]} ${this.lastId}): ` +
          'files imported together must each be sorted; sort it with "osmium sort"',
      );
    }
    this.lastKind = e.kind;
    this.lastId = e.id;
    return true;
  }
}

function before(a: OsmEntity, b: OsmEntity): number {
  return a.kind - b.kind || a.id - b.id;
}

function visit(e: OsmEntity, visitor: OsmVisitor, counts: BlockCounts): void {
  if (e.kind === NODE) {
    counts.nodes++;
    visitor.node!(e.id, e.lon, e.lat, e.tags);
  } else if (e.kind === WAY) {
    counts.ways++;
    visitor.way!({ id: e.id, refs: e.refs, tags: e.tags });
  } else if (e.kind === RELATION) {
    counts.relations++;
    visitor.relation!({ id: e.id, members: e.members, tags: e.tags });
  }
}

export async function readMergedOsm(files: readonly string[], visitor: OsmVisitor, options: ReadOptions = {}): Promise<ReadResult> {
  const kinds = { node: visitor.node !== undefined, way: visitor.way !== undefined, relation: visitor.relation !== undefined };
  const sources: EntityBatches[] = [];
  try {
    for (const file of files) sources.push(await openEntityBatches(file, kinds));
    const counts: BlockCounts = { nodes: 0, ways: 0, relations: 0 };
    const totalBytes = sources.reduce((sum, s) => sum + s.totalBytes, 0);
    const report = (): void => options.onProgress?.(sources.reduce((sum, s) => sum + s.bytesRead(), 0), totalBytes, counts);
    // File order breaks ties: the first file named that holds an object is the one read.
    let live: Cursor[] = [];
    for (const s of sources) {
      const c = new Cursor(s);
      c.at = -1;
      if (await c.advance(options.signal)) live.push(c);
    }
    let sinceReport = 0;
    while (live.length > 0) {
      let first = live[0];
      for (let i = 1; i < live.length; i++) if (before(live[i].head!, first.head!) < 0) first = live[i];
      const entity = first.head!;
      visit(entity, visitor, counts);
      // Every file whose head is this same object moves past it: a duplicate is read once.
      const ended: Cursor[] = [];
      for (const c of live) {
        if (c === first || before(c.head!, entity) === 0) {
          const moved = c.advance(options.signal);
          if (!(moved === true || (moved !== false && (await moved)))) ended.push(c);
        }
      }
      if (ended.length > 0) live = live.filter((c) => !ended.includes(c));
      if (++sinceReport === 8192) {
        sinceReport = 0;
        report();
      }
    }
    report();
    // The manifest names one format and compression: the first file's.
    return { ...counts, format: sources[0].format, compression: sources[0].compression };
  } finally {
    for (const s of sources) s.close();
  }
}
