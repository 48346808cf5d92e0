// Writing and reading basemap.bin (layout in basemap-layout.ts). The writer streams cell blobs to the
// file as the stage makes them, so only one level's pieces are held; the reader keeps the header and the
// directories (12 bytes a cell) and reads a cell's blob from the file when a view asks for it.
import { closeSync, openSync, readSync, writeSync, fstatSync, renameSync } from 'node:fs';
import path from 'node:path';
import {
  BASEMAP_FILE, BASEMAP_FORMAT, BASEMAP_MAGIC, BASEMAP_VERSION, BASEMAP_VERSIONS_READ, DIRECTORY_ENTRY_BYTES, TRAILER_BYTES,
  type BasemapHeader, type LevelGrid,
} from './basemap-layout';

export class BasemapWriter {
  private readonly fd: number;
  private offset = 0;
  private readonly tmp: string;
  private readonly file: string;
  readonly levels: LevelGrid[] = [];
  private directory: Uint8Array | undefined;
  private current: Omit<LevelGrid, 'directoryOffset'> | undefined;

  constructor(dir: string) {
    this.file = path.join(dir, BASEMAP_FILE);
    this.tmp = `${this.file}.partial`;
    this.fd = openSync(this.tmp, 'w');
    this.write(new TextEncoder().encode(BASEMAP_MAGIC));
  }

  private write(bytes: Uint8Array): void {
    let done = 0;
    while (done < bytes.length) done += writeSync(this.fd, bytes, done, bytes.length - done, this.offset + done);
    this.offset += bytes.length;
  }

  /** Starts a level: its cells follow with `cell`, in any order; `endLevel` writes its directory. */
  beginLevel(grid: Omit<LevelGrid, 'directoryOffset'>): void {
    this.current = grid;
    this.directory = new Uint8Array(grid.cols * grid.rows * DIRECTORY_ENTRY_BYTES);
  }

  cell(col: number, row: number, blob: Uint8Array): void {
    if (!this.current || !this.directory) throw new Error('BasemapWriter.cell before beginLevel');
    const view = new DataView(this.directory.buffer);
    const at = (row * this.current.cols + col) * DIRECTORY_ENTRY_BYTES;
    view.setFloat64(at, this.offset, true);
    view.setUint32(at + 8, blob.length, true);
    this.write(blob);
  }

  endLevel(): void {
    if (!this.current || !this.directory) throw new Error('BasemapWriter.endLevel before beginLevel');
    this.levels.push({ ...this.current, directoryOffset: this.offset });
    this.write(this.directory);
    this.current = undefined;
    this.directory = undefined;
  }

  /** Writes the header and trailer and puts the file in place. */
  finish(header: Omit<BasemapHeader, 'format' | 'version' | 'levels'>): number {
    const json = new TextEncoder().encode(JSON.stringify({ format: BASEMAP_FORMAT, version: BASEMAP_VERSION, ...header, levels: this.levels }));
    const headerOffset = this.offset;
    this.write(json);
    const trailer = new Uint8Array(TRAILER_BYTES);
    const view = new DataView(trailer.buffer);
    view.setFloat64(0, headerOffset, true);
    view.setUint32(8, json.length, true);
    view.setUint32(12, BASEMAP_VERSION, true);
    this.write(trailer);
    closeSync(this.fd);
    renameSync(this.tmp, this.file);
    return this.offset;
  }
}

/** An open basemap.bin: its header, directories, and cell reads. */
export class BasemapFile {
  private constructor(
    private readonly fd: number,
    readonly header: BasemapHeader,
    private readonly directories: DataView[],
  ) {}

  /** Opens `<dir>/basemap.bin`; throws on a missing file, another format or another version. */
  static open(dir: string): BasemapFile {
    const fd = openSync(path.join(dir, BASEMAP_FILE), 'r');
    try {
      const size = fstatSync(fd).size;
      if (size < BASEMAP_MAGIC.length + TRAILER_BYTES) throw new Error('basemap.bin is truncated');
      const magic = readAt(fd, 0, BASEMAP_MAGIC.length);
      if (new TextDecoder().decode(magic) !== BASEMAP_MAGIC) throw new Error('basemap.bin is not a Waymark base map');
      const trailer = new DataView(readAt(fd, size - TRAILER_BYTES, TRAILER_BYTES).buffer);
      const version = trailer.getUint32(12, true);
      if (!BASEMAP_VERSIONS_READ.includes(version)) throw new Error(`basemap.bin is version ${version}; this gateway reads version ${BASEMAP_VERSION} (import the extract again)`);
      const header = JSON.parse(new TextDecoder().decode(readAt(fd, trailer.getFloat64(0, true), trailer.getUint32(8, true)))) as BasemapHeader;
      header.version = version;
      if (header.format !== BASEMAP_FORMAT) throw new Error('basemap.bin has no Waymark base map header');
      const directories = header.levels.map((l) => {
        const bytes = readAt(fd, l.directoryOffset, l.cols * l.rows * DIRECTORY_ENTRY_BYTES);
        return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      });
      return new BasemapFile(fd, header, directories);
    } catch (err) {
      closeSync(fd);
      throw err;
    }
  }

  /** The blob of a level's cell, or undefined when the cell is empty or outside the grid. */
  cell(level: number, col: number, row: number): Uint8Array | undefined {
    const grid = this.header.levels[level];
    if (col < 0 || row < 0 || col >= grid.cols || row >= grid.rows) return undefined;
    const at = (row * grid.cols + col) * DIRECTORY_ENTRY_BYTES;
    const length = this.directories[level].getUint32(at + 8, true);
    if (length === 0) return undefined;
    return readAt(this.fd, this.directories[level].getFloat64(at, true), length);
  }

  close(): void {
    closeSync(this.fd);
  }
}

function readAt(fd: number, position: number, length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let done = 0;
  while (done < length) {
    const n = readSync(fd, bytes, done, length - done, position + done);
    if (n === 0) throw new Error('basemap.bin is truncated');
    done += n;
  }
  return bytes;
}
