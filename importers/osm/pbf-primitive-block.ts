// Decodes one OSMData block (a PrimitiveBlock) of a PBF file into columns of typed arrays (BlockColumns),
// which pbf-block-visit.ts then hands to a visitor entity by entity, in block order. The two halves are
// apart so that decoding can run on a worker thread (pbf-decode-worker.ts) while the importing thread
// visits the previous block: columns cross threads as transferred buffers, not as millions of objects.
//
// Field numbers and the coordinate formula are those of OSM's osmformat.proto:
//   lat = 1e-9 * (lat_offset + granularity * lat), ids, coordinates and refs delta-coded in packed arrays.
// Only the entity kinds asked for are decoded; a ways-only pass skips the node groups whole.
// Strings of the block's table are decoded only when an entity uses them: most blocks are untagged nodes.
import Pbf from 'pbf';
import { eachField, fieldEnd } from './pbf-fields';

/** Which kinds of entity a pass wants decoded. */
export interface EntityKinds {
  node: boolean;
  way: boolean;
  relation: boolean;
}

export const NODE_RUN = 0;
export const WAY_RUN = 1;
export const RELATION_RUN = 2;

/** A block's entities of the wanted kinds, as columns. Tags are pairs of string indices in `kv`. */
export interface BlockColumns {
  /** Kinds in block order, as runs: kind (NODE_RUN…), count, kind, count… */
  runs: number[];
  /** The block's string table; only the entries some decoded entity uses are filled. */
  strings: Array<string | undefined>;
  /** Key and value indices into `strings`, pairs, for every decoded entity in order. */
  kv: Int32Array;
  nodeIds: Float64Array;
  nodeLons: Float64Array;
  nodeLats: Float64Array;
  /** Node i's pairs are kv[nodeTags[2i] … nodeTags[2i+1]) (kinds may interleave in kv: each entity says where its own are). */
  nodeTags: Int32Array;
  /** 1 where a node has tags (an object, perhaps empty), 0 for the untagged node (null). */
  nodeTagged: Uint8Array;
  wayIds: Float64Array;
  /** Way i's node refs are wayRefs[wayRefStarts[i] … wayRefStarts[i+1]). */
  wayRefStarts: Int32Array;
  wayRefs: Float64Array;
  /** As nodeTags. */
  wayTags: Int32Array;
  relationIds: Float64Array;
  /** Relation i's members are [relationMembers[i] … relationMembers[i+1]) of the member columns. */
  relationMembers: Int32Array;
  memberRefs: Float64Array;
  /** 0 node, 1 way, 2 relation. */
  memberTypes: Uint8Array;
  memberRoles: Int32Array;
  /** As nodeTags. */
  relationTags: Int32Array;
}

export interface BlockCounts {
  nodes: number;
  ways: number;
  relations: number;
}

/** The buffers of a block's columns, to transfer them to another thread instead of copying. */
export function columnBuffers(c: BlockColumns): ArrayBuffer[] {
  return [
    c.kv, c.nodeIds, c.nodeLons, c.nodeLats, c.nodeTags, c.nodeTagged, c.wayIds, c.wayRefStarts, c.wayRefs, c.wayTags,
    c.relationIds, c.relationMembers, c.memberRefs, c.memberTypes, c.memberRoles, c.relationTags,
  ].map((a) => a.buffer as ArrayBuffer);
}

/** Decoded strings of a block's table, by index; each decoded once, at its first use. */
class StringTable {
  readonly starts: number[] = [];
  readonly ends: number[] = [];
  readonly decoded: Array<string | undefined> = [];

  private readonly buf: Buffer;

  constructor(data: Uint8Array) {
    this.buf = Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  }

  add(start: number, end: number): void {
    this.starts.push(start);
    this.ends.push(end);
  }

  /** Checks index `i` and decodes its string; returns `i`. */
  use(i: number): number {
    if (this.decoded[i] === undefined) {
      if (i >= this.starts.length) throw new RangeError(`string index ${i} outside the block's table of ${this.starts.length}`);
      this.decoded[i] = this.buf.toString('utf8', this.starts[i], this.ends[i]);
    }
    return i;
  }
}

interface BlockFrame {
  strings: StringTable;
  granularity: number;
  latOffset: number;
  lonOffset: number;
}

/** A typed column being filled, doubled when full. */
class Column<T extends Float64Array | Int32Array | Uint8Array> {
  length = 0;

  constructor(private array: T, private readonly make: (n: number) => T) {}

  push(v: number): void {
    if (this.length === this.array.length) {
      const bigger = this.make(this.array.length * 2);
      bigger.set(this.array);
      this.array = bigger;
    }
    this.array[this.length++] = v;
  }

  /** The filled part (a view: its buffer, with the unused rest, is what is transferred). */
  done(): T {
    return this.array.subarray(0, this.length) as T;
  }
}

const f64 = (): Column<Float64Array> => new Column(new Float64Array(1024), (n) => new Float64Array(n));
const i32 = (): Column<Int32Array> => new Column(new Int32Array(1024), (n) => new Int32Array(n));
const u8 = (): Column<Uint8Array> => new Column(new Uint8Array(1024), (n) => new Uint8Array(n));

/** Columns being filled. */
class Builder {
  runs: number[] = [];
  kv = i32();
  nodeIds = f64();
  nodeLons = f64();
  nodeLats = f64();
  nodeTags = i32();
  nodeTagged = u8();
  wayIds = f64();
  wayRefStarts = i32();
  wayRefs = f64();
  wayTags = i32();
  relationIds = f64();
  relationMembers = i32();
  memberRefs = f64();
  memberTypes = u8();
  memberRoles = i32();
  relationTags = i32();

  constructor() {
    this.wayRefStarts.push(0);
    this.relationMembers.push(0);
  }

  counted(kind: number, n: number): void {
    const last = this.runs.length - 2;
    if (last >= 0 && this.runs[last] === kind) this.runs[last + 1] += n;
    else this.runs.push(kind, n);
  }

  columns(strings: StringTable): BlockColumns {
    return {
      runs: this.runs,
      strings: strings.decoded,
      kv: this.kv.done(),
      nodeIds: this.nodeIds.done(),
      nodeLons: this.nodeLons.done(),
      nodeLats: this.nodeLats.done(),
      nodeTags: this.nodeTags.done(),
      nodeTagged: this.nodeTagged.done(),
      wayIds: this.wayIds.done(),
      wayRefStarts: this.wayRefStarts.done(),
      wayRefs: this.wayRefs.done(),
      wayTags: this.wayTags.done(),
      relationIds: this.relationIds.done(),
      relationMembers: this.relationMembers.done(),
      memberRefs: this.memberRefs.done(),
      memberTypes: this.memberTypes.done(),
      memberRoles: this.memberRoles.done(),
      relationTags: this.relationTags.done(),
    };
  }
}

export function decodePrimitiveBlock(data: Uint8Array, kinds: EntityKinds): BlockColumns {
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
  const out = new Builder();
  for (let g = 0; g < groups.length; g += 2) {
    pbf.pos = groups[g];
    const end = groups[g + 1];
    eachField(pbf, end, (tag) => {
      if (tag === 1 && kinds.node) {
        const e = fieldEnd(pbf);
        decodeNode(pbf, e, frame, out);
        out.counted(NODE_RUN, 1);
      } else if (tag === 2 && kinds.node) {
        const e = fieldEnd(pbf);
        out.counted(NODE_RUN, decodeDenseNodes(pbf, e, frame, out));
      } else if (tag === 3 && kinds.way) {
        const e = fieldEnd(pbf);
        decodeWay(pbf, e, frame, out);
        out.counted(WAY_RUN, 1);
      } else if (tag === 4 && kinds.relation) {
        const e = fieldEnd(pbf);
        decodeRelation(pbf, e, frame, out);
        out.counted(RELATION_RUN, 1);
      }
    });
  }
  return out.columns(strings);
}

/** Appends the packed uint32 key and value indices at [kStart,kEnd) and [vStart,vEnd) to `kv`, as pairs. */
function addTags(pbf: Pbf, kStart: number, kEnd: number, vStart: number, vEnd: number, strings: StringTable, kv: Column<Int32Array>): void {
  const keys = new Pbf(pbf.buf);
  keys.pos = kStart;
  const vals = new Pbf(pbf.buf);
  vals.pos = vStart;
  while (keys.pos < kEnd && vals.pos < vEnd) {
    kv.push(strings.use(keys.readVarint()));
    kv.push(strings.use(vals.readVarint()));
  }
}

function decodeNode(pbf: Pbf, end: number, frame: BlockFrame, out: Builder): void {
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
  const tagged = kEnd > kStart;
  out.nodeTags.push(out.kv.length);
  if (tagged) addTags(pbf, kStart, kEnd, vStart, vEnd, frame.strings, out.kv);
  out.nodeIds.push(id);
  out.nodeLons.push(1e-9 * (frame.lonOffset + frame.granularity * lon));
  out.nodeLats.push(1e-9 * (frame.latOffset + frame.granularity * lat));
  out.nodeTagged.push(tagged ? 1 : 0);
  out.nodeTags.push(out.kv.length);
}

function decodeDenseNodes(pbf: Pbf, end: number, frame: BlockFrame, out: Builder): number {
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
  const kvs = new Pbf(pbf.buf);
  kvs.pos = kvStart;
  const { granularity, latOffset, lonOffset, strings } = frame;
  const kv = out.kv;
  let id = 0, lat = 0, lon = 0, n = 0;
  while (ids.pos < idEnd) {
    if (lats.pos >= latEnd || lons.pos >= lonEnd) throw new RangeError('dense nodes with fewer coordinates than ids');
    id += ids.readSVarint();
    lat += lats.readSVarint();
    lon += lons.readSVarint();
    let tagged = 0;
    out.nodeTags.push(kv.length);
    if (kvs.pos < kvEnd) {
      let k = kvs.readVarint();
      if (k !== 0) {
        tagged = 1;
        while (k !== 0) {
          kv.push(strings.use(k));
          kv.push(strings.use(kvs.readVarint()));
          k = kvs.pos < kvEnd ? kvs.readVarint() : 0;
        }
      }
    }
    out.nodeIds.push(id);
    out.nodeLons.push(1e-9 * (lonOffset + granularity * lon));
    out.nodeLats.push(1e-9 * (latOffset + granularity * lat));
    out.nodeTagged.push(tagged);
    out.nodeTags.push(kv.length);
    n++;
  }
  return n;
}

function decodeWay(pbf: Pbf, end: number, frame: BlockFrame, out: Builder): void {
  let id = 0;
  let kStart = 0, kEnd = 0, vStart = 0, vEnd = 0;
  const refs = out.wayRefs;
  eachField(pbf, end, (tag) => {
    if (tag === 1) id = pbf.readVarint();
    else if (tag === 2) { kEnd = fieldEnd(pbf); kStart = pbf.pos; pbf.pos = kEnd; }
    else if (tag === 3) { vEnd = fieldEnd(pbf); vStart = pbf.pos; pbf.pos = vEnd; }
    else if (tag === 8) {
      const e = fieldEnd(pbf);
      let ref = 0;
      while (pbf.pos < e) {
        ref += pbf.readSVarint();
        refs.push(ref);
      }
    }
  });
  out.wayTags.push(out.kv.length);
  if (kEnd > kStart) addTags(pbf, kStart, kEnd, vStart, vEnd, frame.strings, out.kv);
  out.wayIds.push(id);
  out.wayRefStarts.push(refs.length);
  out.wayTags.push(out.kv.length);
}

function decodeRelation(pbf: Pbf, end: number, frame: BlockFrame, out: Builder): void {
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
  let ref = 0;
  for (let i = 0; i < refs.length; i++) {
    ref += refs[i];
    const type = types[i];
    if (!(type === 0 || type === 1 || type === 2)) throw new RangeError(`relation ${id} has a member of unknown type ${types[i]}`);
    out.memberRefs.push(ref);
    out.memberTypes.push(type);
    out.memberRoles.push(frame.strings.use(roles[i] ?? 0));
  }
  out.relationTags.push(out.kv.length);
  if (kEnd > kStart) addTags(pbf, kStart, kEnd, vStart, vEnd, frame.strings, out.kv);
  out.relationIds.push(id);
  out.relationMembers.push(out.memberRefs.length);
  out.relationTags.push(out.kv.length);
}
