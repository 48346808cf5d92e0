// Finished edges of a contraction (core/routing/contraction.ts) in a file instead of memory,
// for an import under a memory budget: each chunk is appended as its count and seven arrays, and read
// back chunk by chunk when the hierarchy is assembled. The file goes when the store is closed.
import fs from 'node:fs';
import path from 'node:path';
import { EDGE_CHUNK, EdgeChunk, FinishedEdgesInMemory, type FinishedEdges } from '../../../../core/routing/contraction';
import type { ModeGraphJob } from './mode-graph-job';

export class SpilledEdges implements FinishedEdges {
  private readonly file: string;
  private fd: number;
  private bytes = 0;
  /** add() writes a chunk out before it returns: the contraction refills the same one. */
  readonly copiesChunks = true;

  constructor(dir: string, name: string) {
    this.file = path.join(dir, `${name}-${process.pid}-${Date.now()}.edges`);
    this.fd = fs.openSync(this.file, 'w+');
  }

  get bytesWritten(): number {
    return this.bytes;
  }

  add(chunk: EdgeChunk): void {
    const head = new Uint32Array([chunk.count]);
    this.write(head);
    for (const a of chunk.arrays()) this.write(a.subarray(0, chunk.count));
  }

  forEach(visit: (chunk: EdgeChunk) => void): void {
    const chunk = new EdgeChunk(EDGE_CHUNK);
    const head = new Uint32Array(1);
    let at = 0;
    while (at < this.bytes) {
      at += this.read(head, 1, at);
      const count = head[0];
      if (count > chunk.capacity) throw new Error(`edge spill file ${this.file} is damaged (a chunk of ${count} edges)`);
      for (const a of chunk.arrays()) at += this.read(a, count, at);
      chunk.count = count;
      visit(chunk);
    }
  }

  close(): void {
    if (this.fd < 0) return;
    fs.closeSync(this.fd);
    this.fd = -1;
    fs.rmSync(this.file, { force: true });
  }

  private write(a: Uint32Array | Float32Array | Int32Array): void {
    const buffer = Buffer.from(a.buffer, a.byteOffset, a.byteLength);
    let done = 0;
    while (done < buffer.length) done += fs.writeSync(this.fd, buffer, done, buffer.length - done, this.bytes + done);
    this.bytes += buffer.length;
  }

  private read(a: Uint32Array | Float32Array | Int32Array, count: number, at: number): number {
    const length = count * a.BYTES_PER_ELEMENT;
    const buffer = Buffer.from(a.buffer, a.byteOffset, length);
    let done = 0;
    while (done < length) {
      const got = fs.readSync(this.fd, buffer, done, length - done, at + done);
      if (got === 0) throw new Error(`edge spill file ${this.file} ended early`);
      done += got;
    }
    return length;
  }
}

/** The store a job's contraction puts its finished edges in: a spill file when the job names a folder. */
export function finishedEdgesFor(job: ModeGraphJob): FinishedEdges {
  return job.contractionSpillDir === null ? new FinishedEdgesInMemory() : new SpilledEdges(job.contractionSpillDir, `mode-${job.id}`);
}
