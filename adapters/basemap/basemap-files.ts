// The base map files of the imported extracts (`<extract>/basemap/basemap.bin`), open while served: each
// is opened on first use after the catalog lists it and closed when a re-import or removal replaces its
// folder. An extract imported before the base map stage existed has no file and is skipped.
import fs from 'node:fs';
import path from 'node:path';
import type { ExtractCatalog, LoadedExtract } from '../extracts/extract-catalog';
import { BasemapFile } from '../../core/formats/basemap/basemap-file';
import type { Logger } from '../../ports/logger';

interface Opened {
  key: string;
  file: BasemapFile | undefined;
}

export class BasemapFiles {
  private readonly opened = new Map<string, Opened>();

  constructor(private readonly extracts: ExtractCatalog, private readonly logger?: Logger) {}

  /** The open files of the extracts served now. */
  current(): BasemapFile[] {
    const served = this.extracts.current();
    const names = new Set(served.map((e) => e.name));
    for (const [name, o] of this.opened) {
      if (!names.has(name)) {
        o.file?.close();
        this.opened.delete(name);
      }
    }
    const files: BasemapFile[] = [];
    for (const e of served) {
      const file = this.fileOf(e);
      if (file) files.push(file);
    }
    return files;
  }

  private fileOf(e: LoadedExtract): BasemapFile | undefined {
    // A re-import swaps the folder and writes a new manifest: its import time tells the two apart.
    const key = `${e.dir} ${e.manifest.importedAt}`;
    const known = this.opened.get(e.name);
    if (known && known.key === key) return known.file;
    known?.file?.close();
    let file: BasemapFile | undefined;
    const dir = path.join(e.dir, 'basemap');
    if (fs.existsSync(dir)) {
      try {
        file = BasemapFile.open(dir);
      } catch (err) {
        this.logger?.warn('base map file not served', { extract: e.name, err: (err as Error).message });
      }
    }
    this.opened.set(e.name, { key, file });
    return file;
  }

  close(): void {
    for (const o of this.opened.values()) o.file?.close();
    this.opened.clear();
  }
}
