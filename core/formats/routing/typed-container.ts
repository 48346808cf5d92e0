// A file format for named typed arrays: [u32 header length][JSON header][padding][arrays, 8-byte aligned].
// Decoding makes views over the file's own buffer (no copy), so loading a network is one read.
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

export function decodeArrays(file: Uint8Array): DecodedArrays {
  if (file.byteLength < 8) throw new Error('typed-array file too short');
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const jsonLength = view.getUint32(0, true);
  const header = JSON.parse(new TextDecoder().decode(file.subarray(4, 4 + jsonLength))) as Header;
  if (header.format !== 'waymark-typed-arrays' || header.version !== 1) throw new Error('not a Waymark typed-array file');
  const base = Math.ceil((4 + jsonLength) / 8) * 8;
  // The views need 8-byte alignment of the underlying buffer; copy once when the read buffer lacks it.
  let bytes = file;
  if ((file.byteOffset + base) % 8 !== 0) bytes = new Uint8Array(file);
  const arrays: Record<string, TypedArray> = {};
  for (const e of header.arrays) {
    const Ctor = CONSTRUCTORS[e.type];
    const start = bytes.byteOffset + base + e.offset;
    if (start + e.length * Ctor.BYTES_PER_ELEMENT > bytes.byteOffset + bytes.byteLength) throw new Error(`typed-array file truncated in ${e.name}`);
    arrays[e.name] = new Ctor(bytes.buffer as ArrayBuffer, start, e.length);
  }
  return { meta: header.meta, arrays };
}
