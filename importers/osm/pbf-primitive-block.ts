// Decodes one OSMData block (a PrimitiveBlock) of a PBF file and hands its entities to a visitor.
// Field numbers and the coordinate formula are those of OSM's osmformat.proto:
//   lat = 1e-9 * (lat_offset + granularity * lat), ids, coordinates and refs delta-coded in packed arrays.
// Only the entity kinds the visitor wants are decoded; a ways-only pass skips the node groups whole.
// Strings of the block's table are decoded on first use: most blocks are untagged nodes.
import Pbf from 'pbf';
import { eachField, fieldEnd } from './pbf-fields';
import type { OsmVisitor } from './osm-visitor';
import type { OsmMember, OsmMemberType, OsmTags } from './stage';

const MEMBER_TYPES: readonly OsmMemberType[] = ['node', 'way', 'relation'];

class StringTable {
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  private readonly decoded: Array<string | undefined> = [];

  constructor(private readonly buf: Buffer) {}

  add(start: number, end: number): void {
    this.starts.push(start);
    this.ends.push(end);
  }

  get(i: number): string {
    let s = this.decoded[i];
    if (s === undefined) {
      if (i >= this.starts.length) throw new RangeError(`string index ${i} outside the block's table of ${this.starts.length}`);
      s = this.buf.toString('utf8', this.starts[i], this.ends[i]);
      this.decoded[i] = s;
    }
    return s;
  }
}

interface BlockFrame {
  strings: StringTable;
  granularity: number;
  latOffset: number;
  lonOffset: number;
}

/** Reusable buffer for a way's refs, grown as needed: refs are valid only during the visitor call. */
let refBuffer = new Float64Array(2048);

export interface BlockCounts {
  nodes: number;
  ways: number;
  relations: number;
}

export function decodePrimitiveBlock(data: Buffer, visitor: OsmVisitor, counts: BlockCounts): void {
  const pbf = new Pbf(data);
  const strings = new StringTable(data);
  const frame: BlockFrame = { strings, granularity: 100, latOffset: 0, lonOffset: 0 };
  const groups: number[] = [];
  // Granularity and offsets follow the groups in the message: note where groups are, decode them after.
  eachField(pbf, pbf.length, (tag) => {
    if (tag === 1) {
      const end = fieldEnd(pbf);
      eachField(pbf, end, (t) => {
        if (t === 1) {
          const e = fieldEnd(pbf);
          strings.add(pbf.pos, e);
          pbf.pos = e;
        }
      });
    } else if (tag === 2) {
      const end = fieldEnd(pbf);
      groups.push(pbf.pos, end);
      pbf.pos = end;
    } else if (tag === 17) frame.granularity = pbf.readVarint();
    else if (tag === 19) frame.latOffset = pbf.readVarint(true);
    else if (tag === 20) frame.lonOffset = pbf.readVarint(true);
  });
  for (let g = 0; g < groups.length; g += 2) {
    pbf.pos = groups[g];
    const end = groups[g + 1];
    eachField(pbf, end, (tag) => {
      if (tag === 1 && visitor.node) {
        const e = fieldEnd(pbf);
        decodeNode(pbf, e, frame, visitor);
        counts.nodes++;
      } else if (tag === 2 && visitor.node) {
        const e = fieldEnd(pbf);
        counts.nodes += decodeDenseNodes(pbf, e, frame, visitor);
      } else if (tag === 3 && visitor.way) {
        const e = fieldEnd(pbf);
        decodeWay(pbf, e, frame, visitor);
        counts.ways++;
      } else if (tag === 4 && visitor.relation) {
        const e = fieldEnd(pbf);
        decodeRelation(pbf, e, frame, visitor);
        counts.relations++;
      }
    });
  }
}

/** Reads the packed uint32 key and value indices at [kStart,kEnd) and [vStart,vEnd) into a frozen object. */
function tagsOf(pbf: Pbf, kStart: number, kEnd: number, vStart: number, vEnd: number, strings: StringTable): OsmTags {
  const tags: Record<string, string> = {};
  const keys = new Pbf(pbf.buf);
  keys.pos = kStart;
  const vals = new Pbf(pbf.buf);
  vals.pos = vStart;
  while (keys.pos < kEnd && vals.pos < vEnd) tags[strings.get(keys.readVarint())] = strings.get(vals.readVarint());
  return Object.freeze(tags);
}

function decodeNode(pbf: Pbf, end: number, frame: BlockFrame, visitor: OsmVisitor): void {
  let id = 0;
  let lat = 0;
  let lon = 0;
  let kStart = 0, kEnd = 0, vStart = 0, vEnd = 0;
  eachField(pbf, end, (tag) => {
    if (tag === 1) id = pbf.readSVarint();
    else if (tag === 2) { kEnd = fieldEnd(pbf); kStart = pbf.pos; pbf.pos = kEnd; }
    else if (tag === 3) { vEnd = fieldEnd(pbf); vStart = pbf.pos; pbf.pos = vEnd; }
    else if (tag === 8) lat = pbf.readSVarint();
    else if (tag === 9) lon = pbf.readSVarint();
  });
  const tags = kEnd > kStart ? tagsOf(pbf, kStart, kEnd, vStart, vEnd, frame.strings) : null;
  visitor.node!(id, 1e-9 * (frame.lonOffset + frame.granularity * lon), 1e-9 * (frame.latOffset + frame.granularity * lat), tags);
}

function decodeDenseNodes(pbf: Pbf, end: number, frame: BlockFrame, visitor: OsmVisitor): number {
  let idStart = 0, idEnd = 0, latStart = 0, latEnd = 0, lonStart = 0, lonEnd = 0, kvStart = 0, kvEnd = 0;
  eachField(pbf, end, (tag) => {
    if (tag === 1) { idEnd = fieldEnd(pbf); idStart = pbf.pos; pbf.pos = idEnd; }
    else if (tag === 8) { latEnd = fieldEnd(pbf); latStart = pbf.pos; pbf.pos = latEnd; }
    else if (tag === 9) { lonEnd = fieldEnd(pbf); lonStart = pbf.pos; pbf.pos = lonEnd; }
    else if (tag === 10) { kvEnd = fieldEnd(pbf); kvStart = pbf.pos; pbf.pos = kvEnd; }
  });
  const ids = new Pbf(pbf.buf);
  ids.pos = idStart;
  const lats = new Pbf(pbf.buf);
  lats.pos = latStart;
  const lons = new Pbf(pbf.buf);
  lons.pos = lonStart;
  const kv = new Pbf(pbf.buf);
  kv.pos = kvStart;
  const { granularity, latOffset, lonOffset, strings } = frame;
  const node = visitor.node!;
  let id = 0, lat = 0, lon = 0, n = 0;
  while (ids.pos < idEnd) {
    if (lats.pos >= latEnd || lons.pos >= lonEnd) throw new RangeError('dense nodes with fewer coordinates than ids');
    id += ids.readSVarint();
    lat += lats.readSVarint();
    lon += lons.readSVarint();
    let tags: OsmTags | null = null;
    if (kv.pos < kvEnd) {
      let k = kv.readVarint();
      if (k !== 0) {
        const t: Record<string, string> = {};
        while (k !== 0) {
          t[strings.get(k)] = strings.get(kv.readVarint());
          k = kv.pos < kvEnd ? kv.readVarint() : 0;
        }
        tags = Object.freeze(t);
      }
    }
    node(id, 1e-9 * (lonOffset + granularity * lon), 1e-9 * (latOffset + granularity * lat), tags);
    n++;
  }
  return n;
}

function decodeWay(pbf: Pbf, end: number, frame: BlockFrame, visitor: OsmVisitor): void {
  let id = 0;
  let kStart = 0, kEnd = 0, vStart = 0, vEnd = 0;
  let count = 0;
  eachField(pbf, end, (tag) => {
    if (tag === 1) id = pbf.readVarint();
    else if (tag === 2) { kEnd = fieldEnd(pbf); kStart = pbf.pos; pbf.pos = kEnd; }
    else if (tag === 3) { vEnd = fieldEnd(pbf); vStart = pbf.pos; pbf.pos = vEnd; }
    else if (tag === 8) {
      const e = fieldEnd(pbf);
      let ref = 0;
      while (pbf.pos < e) {
        if (count === refBuffer.length) {
          const bigger = new Float64Array(refBuffer.length * 2);
          bigger.set(refBuffer);
          refBuffer = bigger;
        }
        ref += pbf.readSVarint();
        refBuffer[count++] = ref;
      }
    }
  });
  const tags = kEnd > kStart ? tagsOf(pbf, kStart, kEnd, vStart, vEnd, frame.strings) : EMPTY_TAGS;
  visitor.way!({ id, refs: refBuffer.subarray(0, count), tags });
}

const EMPTY_TAGS: OsmTags = Object.freeze({});

function decodeRelation(pbf: Pbf, end: number, frame: BlockFrame, visitor: OsmVisitor): void {
  let id = 0;
  let kStart = 0, kEnd = 0, vStart = 0, vEnd = 0;
  const roles: number[] = [];
  const refs: number[] = [];
  const types: number[] = [];
  eachField(pbf, end, (tag) => {
    if (tag === 1) id = pbf.readVarint();
    else if (tag === 2) { kEnd = fieldEnd(pbf); kStart = pbf.pos; pbf.pos = kEnd; }
    else if (tag === 3) { vEnd = fieldEnd(pbf); vStart = pbf.pos; pbf.pos = vEnd; }
    else if (tag === 8) pbf.readPackedVarint(roles, true);
    else if (tag === 9) pbf.readPackedSVarint(refs);
    else if (tag === 10) pbf.readPackedVarint(types);
  });
  const members: OsmMember[] = [];
  let ref = 0;
  for (let i = 0; i < refs.length; i++) {
    ref += refs[i];
    const type = MEMBER_TYPES[types[i]];
    if (type === undefined) throw new RangeError(`relation ${id} has a member of unknown type ${types[i]}`);
    members.push({ type, ref, role: frame.strings.get(roles[i] ?? 0) });
  }
  const tags = kEnd > kStart ? tagsOf(pbf, kStart, kEnd, vStart, vEnd, frame.strings) : EMPTY_TAGS;
  visitor.relation!({ id, members: Object.freeze(members), tags });
}
