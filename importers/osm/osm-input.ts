// Opens an OSM extract for one pass: recognises the compression (bzip2, gzip) and the format (PBF,
// XML) from the first bytes rather than the file name, and counts the file bytes consumed so far for
// progress. Each pass opens the file again: extracts are read in passes, never held whole.
import fs from 'node:fs';
import zlib from 'node:zlib';
import { Duplex, PassThrough, type Readable } from 'node:stream';
import unbzip2 from 'unbzip2-stream';
import { OsmFormatError } from './osm-visitor';

export type OsmFormat = 'pbf' | 'xml';
export type OsmCompression = 'none' | 'gzip' | 'bzip2';

export interface OsmInput {
  format: OsmFormat;
  compression: OsmCompression;
  /** Uncompressed bytes, in order. */
  chunks: AsyncIterable<Buffer>;
  /** Bytes of the file read so far (compressed), and the file's size: for progress. */
  bytesRead(): number;
  totalBytes: number;
  close(): void;
}

const READ_CHUNK = 1 << 20;

function compressionOf(head: Buffer): OsmCompression {
  if (head.length >= 3 && head[0] === 0x42 && head[1] === 0x5a && head[2] === 0x68) return 'bzip2'; // "BZh"
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'gzip';
  return 'none';
}

function formatOf(head: Buffer, file: string): OsmFormat {
  // PBF: a 4-byte header length, then the BlobHeader whose first field is the string "OSMHeader".
  if (head.length >= 15 && head[4] === 0x0a && head[5] === 9 && head.toString('latin1', 6, 15) === 'OSMHeader') return 'pbf';
  let i = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  while (i < head.length && (head[i] === 0x20 || head[i] === 0x0a || head[i] === 0x0d || head[i] === 0x09)) i++;
  if (i < head.length && head[i] === 0x3c) return 'xml'; // "<"
  if (head.length === 0) throw new OsmFormatError(`${file} is empty`);
  throw new OsmFormatError(`${file} is not an OSM extract (neither OSM PBF nor OSM XML, optionally bzip2 or gzip compressed)`);
}

/** unbzip2-stream is an old-style "through" stream: behind a PassThrough it reads like any stream. */
function bzip2Decompressor(): Duplex {
  const through = unbzip2();
  const out = new PassThrough();
  through.on('data', (chunk: Buffer) => {
    if (!out.write(chunk)) through.pause();
  });
  out.on('drain', () => through.resume());
  through.on('end', () => out.end());
  through.on('error', (err: Error) => out.destroy(err));
  // Writes go to the decoder, reads come from the PassThrough.
  return Duplex.from({ writable: through as unknown as NodeJS.WritableStream, readable: out }) as Duplex;
}

/** The first chunks of a stream (at least `want` bytes when the stream has them), and the rest. */
async function peek(stream: Readable, want: number): Promise<{ head: Buffer; chunks: AsyncIterable<Buffer> }> {
  const iterator = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const taken: Buffer[] = [];
  let length = 0;
  let done = false;
  while (length < want) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    taken.push(next.value);
    length += next.value.length;
  }
  async function* chunks(): AsyncGenerator<Buffer> {
    yield* taken;
    if (done) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  }
  return { head: Buffer.concat(taken), chunks: chunks() };
}

function describeDecompressionError(err: unknown, compression: OsmCompression, file: string): Error {
  if (err instanceof OsmFormatError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new OsmFormatError(`${file}: corrupt or truncated ${compression} data (${message})`);
}

export async function openOsmInput(file: string): Promise<OsmInput> {
  const size = (await fs.promises.stat(file)).size;
  const raw = fs.createReadStream(file, { highWaterMark: READ_CHUNK });
  const rawPeek = await peek(raw, 4).catch((err: unknown) => {
    raw.destroy();
    throw err;
  });
  const compression = compressionOf(rawPeek.head);
  let stream: Readable;
  if (compression === 'none') {
    stream = raw;
  } else {
    const decompressor = compression === 'gzip' ? zlib.createGunzip() : bzip2Decompressor();
    // The peeked bytes go first, then the rest of the file.
    (async () => {
      try {
        for await (const chunk of rawPeek.chunks) {
          if (!(decompressor as NodeJS.WritableStream).write(chunk)) await new Promise((r) => decompressor.once('drain', r));
        }
        (decompressor as NodeJS.WritableStream).end();
      } catch (err) {
        decompressor.destroy(err as Error);
      }
    })();
    stream = decompressor;
  }
  const close = (): void => {
    raw.destroy();
    if (stream !== raw) stream.destroy();
  };
  let head: Buffer;
  let chunks: AsyncIterable<Buffer>;
  try {
    ({ head, chunks } = compression === 'none' ? rawPeek : await peek(stream, 16));
    if (compression !== 'none' && head.length === 0) throw new OsmFormatError(`${file}: the ${compression} data holds nothing`);
  } catch (err) {
    close();
    throw describeDecompressionError(err, compression, file);
  }
  const format = formatOf(head, file);
  async function* guarded(): AsyncGenerator<Buffer> {
    try {
      yield* chunks;
    } catch (err) {
      throw compression === 'none' ? err : describeDecompressionError(err, compression, file);
    }
  }
  return { format, compression, chunks: guarded(), bytesRead: () => raw.bytesRead, totalBytes: size, close };
}
