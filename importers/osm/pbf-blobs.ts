// The framing of an OSM PBF file: [4-byte big-endian length][BlobHeader][Blob], repeated. Blobs are
// read from a byte stream as they arrive (never the whole file) and inflated on libuv's thread pool a
// few blocks ahead of the decoder, so decompression overlaps decoding on a multi-core machine.
import zlib from 'node:zlib';
import { promisify } from 'node:util';
import Pbf from 'pbf';
import { OsmFormatError } from './osm-visitor';
import { eachField } from './pbf-fields';

const inflate = promisify(zlib.inflate);

/** Limits of the PBF format (wiki "PBF Format"): a larger value means corrupt data or another format. */
const MAX_HEADER_BYTES = 64 * 1024;
const MAX_BLOB_BYTES = 32 * 1024 * 1024;
/** Blocks being inflated ahead of the one decoded. */
const INFLATE_AHEAD = 4;

export interface PbfBlock {
  /** `OSMHeader` or `OSMData`. */
  type: string;
  /** Uncompressed block. */
  data: Buffer;
  /** Offset of the block's frame in the (uncompressed) file, for error messages. */
  offset: number;
}

export interface Frame {
  type: string;
  blob: Buffer;
  offset: number;
}

/** A queue of received chunks that hands out exact byte ranges without concatenating everything. */
class ByteQueue {
  private chunks: Buffer[] = [];
  length = 0;

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
  }

  peek(n: number): Buffer {
    const first = this.chunks[0];
    if (first.length >= n) return first.subarray(0, n);
    // A frame across chunks: its n bytes are copied into one buffer, and only they (joining every queued
    // chunk copied each 1 MiB read whole at each boundary: 3 % of the importing thread on ×4×4).
    const joined = Buffer.allocUnsafe(n);
    let at = 0;
    let used = 0;
    while (at < n) {
      const chunk = this.chunks[used];
      const part = Math.min(chunk.length, n - at);
      chunk.copy(joined, at, 0, part);
      at += part;
      if (part === chunk.length) used++;
      else this.chunks[used] = chunk.subarray(part);
    }
    this.chunks.splice(0, used, joined);
    return joined;
  }

  take(n: number): Buffer {
    const out = this.peek(n);
    const first = this.chunks[0];
    if (first.length === n) this.chunks.shift();
    else this.chunks[0] = first.subarray(n);
    this.length -= n;
    return out;
  }
}

function readBlobHeader(data: Buffer, offset: number): { type: string; size: number } {
  const h = { type: '', size: -1 };
  try {
    const pbf = new Pbf(data);
    eachField(pbf, pbf.length, (tag) => {
      if (tag === 1) h.type = pbf.readString();
      else if (tag === 3) h.size = pbf.readVarint();
    });
  } catch {
    throw new OsmFormatError(`not an OSM PBF file: unreadable block header at byte ${offset}`);
  }
  if (h.type === '' || h.size < 0) throw new OsmFormatError(`not an OSM PBF file: block header at byte ${offset} has no type or size`);
  if (h.size > MAX_BLOB_BYTES) throw new OsmFormatError(`corrupt PBF file: block at byte ${offset} claims ${h.size} bytes (the format allows ${MAX_BLOB_BYTES})`);
  return h;
}

export async function* frames(source: AsyncIterable<Buffer>): AsyncGenerator<Frame> {
  const queue = new ByteQueue();
  let offset = 0;
  let header: { type: string; size: number; headerLength: number } | null = null;
  for await (const chunk of source) {
    queue.push(chunk);
    for (;;) {
      if (header === null) {
        if (queue.length < 4) break;
        const headerLength = queue.peek(4).readUInt32BE(0);
        if (headerLength === 0 || headerLength > MAX_HEADER_BYTES) {
          throw new OsmFormatError(offset === 0 ? 'not an OSM PBF file' : `corrupt PBF file: bad block header length ${headerLength} at byte ${offset}`);
        }
        if (queue.length < 4 + headerLength) break;
        queue.take(4);
        header = { ...readBlobHeader(queue.take(headerLength), offset), headerLength };
      }
      if (queue.length < header.size) break;
      const blob = queue.take(header.size);
      yield { type: header.type, blob, offset };
      offset += 4 + header.headerLength + header.size;
      header = null;
    }
  }
  if (header !== null || queue.length > 0) throw new OsmFormatError(`truncated PBF file: it ends inside the block at byte ${offset}`);
}

/** A Buffer over the same memory (Buffer.from of a Uint8Array would copy it). */
function view(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** What a blob holds: its bytes as stored, or zlib-compressed with the size they inflate to. */
export type BlobContent = { raw: Buffer } | { zlib: Buffer; rawSize: number };

/** Reads a blob's fields (no inflating): the same on the reading thread and on a decoding worker. */
export function blobContent(frame: Frame): BlobContent {
  const blob = { raw: null as Buffer | null, rawSize: -1, zlib: null as Buffer | null, other: '' };
  try {
    const pbf = new Pbf(frame.blob);
    eachField(pbf, pbf.length, (tag) => {
      if (tag === 1) blob.raw = view(pbf.readBytes());
      else if (tag === 2) blob.rawSize = pbf.readVarint();
      else if (tag === 3) blob.zlib = view(pbf.readBytes());
      else if (tag === 4) blob.other = 'lzma';
      else if (tag === 5) blob.other = 'bzip2';
      else if (tag === 6) blob.other = 'lz4';
      else if (tag === 7) blob.other = 'zstd';
    });
  } catch {
    throw new OsmFormatError(`corrupt PBF file: unreadable block at byte ${frame.offset}`);
  }
  if (blob.raw) return { raw: blob.raw };
  if (blob.zlib) return { zlib: blob.zlib, rawSize: blob.rawSize };
  if (blob.other) throw new OsmFormatError(`the PBF file uses ${blob.other} compression, which this reader does not support (re-write it with osmium cat, zlib)`);
  throw new OsmFormatError(`corrupt PBF file: block at byte ${frame.offset} holds no data`);
}

/** The inflated bytes, checked against the size the blob announced. */
export function inflated(frame: Frame, content: { rawSize: number }, inflate: () => Buffer): Buffer {
  let data: Buffer;
  try {
    data = inflate();
  } catch (err) {
    throw new OsmFormatError(`corrupt PBF file: block at byte ${frame.offset} does not inflate (${(err as Error).message})`);
  }
  if (content.rawSize >= 0 && data.length !== content.rawSize) {
    throw new OsmFormatError(`corrupt PBF file: block at byte ${frame.offset} inflates to ${data.length} bytes, its header says ${content.rawSize}`);
  }
  return data;
}

/** A blob's bytes on this thread, inflated on libuv's pool. */
export async function decodeBlob(frame: Frame): Promise<Buffer> {
  const content = blobContent(frame);
  if ('raw' in content) return content.raw;
  let data: Buffer | null = null;
  let failure: unknown = null;
  try {
    data = await inflate(content.zlib);
  } catch (err) {
    failure = err;
  }
  return inflated(frame, content, () => {
    if (data === null) throw failure;
    return data;
  });
}

/** A blob's bytes, inflated synchronously (on a decoding worker, whose thread has nothing else to do). */
export function decodeBlobSync(frame: Frame): Buffer {
  const content = blobContent(frame);
  if ('raw' in content) return content.raw;
  // One output chunk of the announced size: zlib's default 16 KiB chunks are joined by a copy at the end.
  const chunkSize = Math.min(MAX_BLOB_BYTES, Math.max(64 * 1024, content.rawSize));
  return inflated(frame, content, () => zlib.inflateSync(content.zlib, { chunkSize }));
}

/** The file's blocks in order, inflated. */
export async function* pbfBlocks(source: AsyncIterable<Buffer>): AsyncGenerator<PbfBlock> {
  const ahead: Array<{ type: string; offset: number; data: Promise<Buffer> }> = [];
  try {
    for await (const frame of frames(source)) {
      const data = decodeBlob(frame);
      // Awaited in order below; this only keeps a failure from counting as unhandled meanwhile.
      data.catch(() => undefined);
      ahead.push({ type: frame.type, offset: frame.offset, data });
      if (ahead.length >= INFLATE_AHEAD) {
        const next = ahead.shift()!;
        yield { type: next.type, offset: next.offset, data: await next.data };
      }
    }
    while (ahead.length > 0) {
      const next = ahead.shift()!;
      yield { type: next.type, offset: next.offset, data: await next.data };
    }
  } finally {
    ahead.length = 0;
  }
}
