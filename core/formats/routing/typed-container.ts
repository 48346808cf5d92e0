// A file format for named typed arrays: [u32 header length][JSON header][padding][arrays, 8-byte aligned].
// Decoding makes views over the file's own buffer (no copy), so loading a network is one read.
// `readArrays` reads an open file without blocking the thread: the header first, then the arrays
// straight into one buffer of their size, in large chunks, from the file's current position (so it
// reads a pipe as well as a file, and nothing is copied after the read).
import fs from 'node:fs';
type TypedArray = Float64Array | Float32Array | Uint32Array | Int32Array | Uint16Array | Uint8Array;

const CONSTRUCTORS = { Float64Array, Float32Array, Uint32Array, Int32Array, Uint16Array, Uint8Array } as const;
type TypeName = keyof typeof CONSTRUCTORS;

interface Header {
  format: 'waymark-typed-arrays';
  version: 1;
  meta: unknown;
  arrays: Array<{ name: string; type: TypeName; offset: number; length: number }>;
}

function typeName(a: TypedArray): TypeName {
  return a.constructor.name as TypeName;
}

export function encodeArrays(arrays: Record<string, TypedArray>, meta: unknown = null): Buffer[] {
  const entries: Header['arrays'] = [];
  let offset = 0;
  for (const [name, a] of Object.entries(arrays)) {
    entries.push({ name, type: typeName(a), offset, length: a.length });
    offset += Math.ceil(a.byteLength / 8) * 8;
  }
  const header: Header = { format: 'waymark-typed-arrays', version: 1, meta, arrays: entries };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const prefix = Math.ceil((4 + json.length) / 8) * 8;
  const head = Buffer.alloc(prefix);
  head.writeUInt32LE(json.length, 0);
  json.copy(head, 4);
  const parts: Buffer[] = [head];
  for (const a of Object.values(arrays)) {
    parts.push(Buffer.from(a.buffer, a.byteOffset, a.byteLength));
    const pad = Math.ceil(a.byteLength / 8) * 8 - a.byteLength;
    if (pad > 0) parts.push(Buffer.alloc(pad));
  }
  return parts;
}

export interface DecodedArrays {
  meta: unknown;
  arrays: Record<string, TypedArray>;
}

function parseHeader(json: Uint8Array): Header {
  const header = JSON.parse(new TextDecoder().decode(json)) as Header;
  if (header.format !== 'waymark-typed-arrays' || header.version !== 1) throw new Error('not a Waymark typed-array file');
  return header;
}

/** Views of the header's arrays over `bytes`, whose first byte is the first array's. */
function viewsOver(header: Header, bytes: Uint8Array): Record<string, TypedArray> {
  const arrays: Record<string, TypedArray> = {};
  for (const e of header.arrays) {
    const Ctor = CONSTRUCTORS[e.type];
    const start = bytes.byteOffset + e.offset;
    if (start + e.length * Ctor.BYTES_PER_ELEMENT > bytes.byteOffset + bytes.byteLength) throw new Error(`typed-array file truncated in ${e.name}`);
    arrays[e.name] = new Ctor(bytes.buffer as ArrayBuffer, start, e.length);
  }
  return arrays;
}

export function decodeArrays(file: Uint8Array): DecodedArrays {
  if (file.byteLength < 8) throw new Error('typed-array file too short');
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const jsonLength = view.getUint32(0, true);
  const header = parseHeader(file.subarray(4, 4 + jsonLength));
  const base = Math.ceil((4 + jsonLength) / 8) * 8;
  // The views need 8-byte alignment of the underlying buffer; copy once when the read buffer lacks it.
  let bytes = file;
  if ((file.byteOffset + base) % 8 !== 0) bytes = new Uint8Array(file);
  return { meta: header.meta, arrays: viewsOver(header, bytes.subarray(base)) };
}

/** Bytes one read asks for: large enough that a gigabyte is a few dozen reads, small enough to stay one syscall's worth. */
const CHUNK_BYTES = 64 * 2 ** 20;

/** Reads exactly `into.byteLength` bytes from the file's position; fails at an early end. */
async function readFully(fd: number, into: Uint8Array, what: string): Promise<void> {
  for (let done = 0; done < into.byteLength;) {
    const length = Math.min(CHUNK_BYTES, into.byteLength - done);
    const bytesRead = await new Promise<number>((resolve, reject) => {
      fs.read(fd, into, done, length, null, (err, n) => (err ? reject(err) : resolve(n)));
    });
    if (bytesRead === 0) throw new Error(`typed-array file truncated (${what})`);
    done += bytesRead;
  }
}

/**
 * Reads a typed-array file from an open descriptor's current position without blocking the thread: one
 * buffer of the arrays' size, filled by large reads, and the views over it. Any bytes past the arrays
 * are not read.
 */
export async function readArrays(fd: number): Promise<DecodedArrays> {
  const length = new Uint8Array(4);
  await readFully(fd, length, 'header length');
  const jsonLength = new DataView(length.buffer).getUint32(0, true);
  const base = Math.ceil((4 + jsonLength) / 8) * 8;
  const head = new Uint8Array(base - 4);
  await readFully(fd, head, 'header');
  const header = parseHeader(head.subarray(0, jsonLength));
  let size = 0;
  for (const e of header.arrays) size = Math.max(size, e.offset + Math.ceil((e.length * CONSTRUCTORS[e.type].BYTES_PER_ELEMENT) / 8) * 8);
  // An ArrayBuffer starts 8-byte aligned, so the views need no copy.
  const bytes = new Uint8Array(new ArrayBuffer(size));
  await readFully(fd, bytes, 'arrays');
  return { meta: header.meta, arrays: viewsOver(header, bytes) };
}
