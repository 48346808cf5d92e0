// The blocks of a PBF file decoded ahead of the thread that visits them: each OSMData blob goes to a
// worker thread (pbf-decode-worker.ts) that inflates it and decodes it into columns of typed arrays
// (pbf-primitive-block.ts), which come back as transferred buffers. The importing thread keeps only the
// framing, the tag objects and the stages' own work, and the blocks come out in file order whatever order
// the workers finish in, so every visitor sees exactly the entities, in exactly the order, of a read on
// one thread (test/data/pbf-decode-pool.test.ts).
//
// Memory: at most `aheadBlocks` blocks are in flight (sent, being decoded or decoded and waiting), each a
// compressed blob (the format allows 32 MiB, osmium writes ~8,000 entities, 0.1–1 MiB) plus its columns
// (~30 bytes a node, ~10 bytes a way ref).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { OsmFormatError } from './osm-visitor';
import { decodeBlob, frames, pbfBlocks, type Frame } from './pbf-blobs';
import { decodePrimitiveBlock, type BlockColumns, type EntityKinds } from './pbf-primitive-block';

const WORKER_FILE = path.join(__dirname, 'pbf-decode-worker.js');
/** Below this a file is decoded on the reading thread: starting a worker costs more than it saves. */
const POOL_FROM_BYTES = 4 * 1024 * 1024;
/** More decoders than this only wait: one thread visiting the blocks is the bottleneck. */
const MAX_THREADS = 3;

/** What a decoding worker is sent for one block. */
export interface DecodeRequest {
  seq: number;
  offset: number;
  /** The blob as stored (its own buffer, transferred). */
  blob: Uint8Array;
  kinds: EntityKinds;
}

/** What it sends back. */
export type DecodeReply =
  | { seq: number; columns: BlockColumns }
  | { seq: number; error: { message: string; kind: 'format' | 'range' | 'other' } };

/** A block that does not decode: the caller names the file and the block's offset. */
export class BlockDecodeError extends RangeError {
  constructor(readonly offset: number, message: string) {
    super(message);
  }
}

export interface DecodeThreads {
  /** Worker threads; 0 decodes on the reading thread. Default: decodeThreadsFor(the file's size). */
  threads?: number;
  /** Starts one decoding worker; default the compiled pbf-decode-worker.js (tests start the TypeScript source). */
  startWorker?(): Worker;
}

export type DecodedBlock =
  | { type: 'OSMHeader'; offset: number; data: Buffer }
  | { type: 'OSMData'; offset: number; columns: BlockColumns }
  /** A block of a type this reader does not know: skipped, as the format asks. */
  | { type: 'other'; offset: number };

/**
 * Workers for a file of `bytes`: one fewer than the cores (the reading thread has the other), at least
 * one, at most MAX_THREADS; none for a small file or when the compiled worker is absent (sources run
 * under a test runner).
 */
export function decodeThreadsFor(bytes: number): number {
  if (bytes < POOL_FROM_BYTES || !fs.existsSync(WORKER_FILE)) return 0;
  return Math.max(1, Math.min(MAX_THREADS, os.availableParallelism() - 1));
}

/** Blocks in flight for `threads` workers: enough that a worker never waits for the next one. */
export function aheadBlocks(threads: number): number {
  return Math.max(4, threads * 3);
}

class DecodePool {
  private readonly workers: Worker[] = [];
  private readonly waiting = new Map<number, { resolve(c: BlockColumns): void; reject(e: Error): void }>();
  private next = 0;
  private failed: Error | null = null;

  constructor(threads: number, start: () => Worker) {
    for (let i = 0; i < threads; i++) {
      const worker = start();
      worker.on('message', (reply: DecodeReply) => this.answered(reply));
      worker.on('error', (err) => this.fail(err));
      worker.on('exit', (code) => {
        if (code !== 0) this.fail(new Error(`a PBF decoding thread stopped (exit code ${code})`));
      });
      this.workers.push(worker);
    }
  }

  decode(frame: Frame, kinds: EntityKinds): Promise<BlockColumns> {
    if (this.failed) return Promise.reject(this.failed);
    const seq = this.next++;
    // The frame is a view into a chunk other frames share: the worker gets a copy it can own.
    const blob = new Uint8Array(frame.blob);
    const request: DecodeRequest = { seq, offset: frame.offset, blob, kinds };
    return new Promise<BlockColumns>((resolve, reject) => {
      this.waiting.set(seq, { resolve, reject });
      this.workers[seq % this.workers.length].postMessage(request, [blob.buffer]);
    });
  }

  close(): void {
    this.failed ??= new Error('the PBF decoding threads were closed');
    for (const w of this.workers) void w.terminate();
  }

  private answered(reply: DecodeReply): void {
    const waiter = this.waiting.get(reply.seq);
    if (!waiter) return;
    this.waiting.delete(reply.seq);
    if ('columns' in reply) waiter.resolve(reply.columns);
    else {
      const { message, kind } = reply.error;
      waiter.reject(kind === 'format' ? new OsmFormatError(message) : kind === 'range' ? new RangeError(message) : new Error(message));
    }
  }

  private fail(err: Error): void {
    if (this.failed) return;
    this.failed = err;
    for (const w of this.waiting.values()) w.reject(err);
    this.waiting.clear();
  }
}

function startCompiledWorker(): Worker {
  return new Worker(WORKER_FILE);
}

function decodeError(err: unknown, offset: number): unknown {
  return err instanceof RangeError && !(err instanceof BlockDecodeError) ? new BlockDecodeError(offset, err.message) : err;
}

/** The file's OSMHeader and OSMData blocks in file order, data blocks decoded to the `kinds` asked for. */
export async function* decodedBlocks(source: AsyncIterable<Buffer>, kinds: EntityKinds, threads: number, start: () => Worker = startCompiledWorker): AsyncGenerator<DecodedBlock> {
  if (threads <= 0) {
    // One thread: blobs inflate on libuv's pool a few ahead (pbf-blobs.ts), columns are decoded here.
    for await (const block of pbfBlocks(source)) {
      if (block.type === 'OSMHeader') yield { type: 'OSMHeader', offset: block.offset, data: block.data };
      else if (block.type === 'OSMData') {
        let columns: BlockColumns;
        try {
          columns = decodePrimitiveBlock(block.data, kinds);
        } catch (err) {
          throw decodeError(err, block.offset);
        }
        yield { type: 'OSMData', offset: block.offset, columns };
      } else yield { type: 'other', offset: block.offset };
    }
    return;
  }
  const pool = new DecodePool(threads, start);
  const ahead: Array<{ offset: number; header: Promise<Buffer> | null; columns: Promise<BlockColumns> | null }> = [];
  const limit = aheadBlocks(threads);
  async function* taken(all: boolean): AsyncGenerator<DecodedBlock> {
    while (ahead.length >= (all ? 1 : limit)) {
      const next = ahead.shift()!;
      if (next.header) yield { type: 'OSMHeader', offset: next.offset, data: await next.header };
      else if (next.columns) {
        let columns: BlockColumns;
        try {
          columns = await next.columns;
        } catch (err) {
          throw decodeError(err, next.offset);
        }
        yield { type: 'OSMData', offset: next.offset, columns };
      } else yield { type: 'other', offset: next.offset };
    }
  }
  try {
    for await (const frame of frames(source)) {
      if (frame.type === 'OSMHeader') {
        // Read on this thread: it is one small block, and it comes first.
        const header = decodeBlob(frame);
        header.catch(() => undefined);
        ahead.push({ offset: frame.offset, header, columns: null });
      } else if (frame.type === 'OSMData') {
        const columns = pool.decode(frame, kinds);
        // Awaited in order; this only keeps a failure from counting as unhandled meanwhile.
        columns.catch(() => undefined);
        ahead.push({ offset: frame.offset, header: null, columns });
      } else ahead.push({ offset: frame.offset, header: null, columns: null });
      yield* taken(false);
    }
    yield* taken(true);
  } finally {
    ahead.length = 0;
    pool.close();
  }
}
