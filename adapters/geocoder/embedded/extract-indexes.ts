// The geocoding indexes of the imported extracts the catalog serves (adapters/extracts/extract-catalog.ts):
// opened when an extract appears, reopened when a re-import replaced it, closed when it is removed.
// A re-import swaps the whole folder, so an index is never seen half-written.
import fs from 'node:fs';
import path from 'node:path';
import { INDEX_FILE } from '../../../core/formats/geocoding-index';
import type { Logger } from '../../../ports/logger';
import type { LoadedExtract } from '../../extracts/extract-catalog';
import { ExtractIndex } from './extract-index';

interface Opened {
  importedAt: string;
  index: ExtractIndex;
}

export class ExtractIndexes {
  private opened = new Map<string, Opened>();
  private seen: readonly LoadedExtract[] | undefined;

  constructor(
    private readonly catalog: { current(): readonly LoadedExtract[] },
    private readonly logger?: Logger,
  ) {}

  current(): ExtractIndex[] {
    const extracts = this.catalog.current();
    // The catalog hands back the same array until the set changes.
    if (extracts !== this.seen) this.sync(extracts);
    return [...this.opened.values()].map((o) => o.index);
  }

  private sync(extracts: readonly LoadedExtract[]): void {
    this.seen = extracts;
    const names = new Set<string>();
    for (const e of extracts) {
      const dir = path.join(e.dir, 'geocoding');
      if (!fs.existsSync(path.join(dir, INDEX_FILE))) continue;
      names.add(e.name);
      const had = this.opened.get(e.name);
      if (had?.importedAt === e.manifest.importedAt) continue;
      try {
        const index = new ExtractIndex(e.name, dir);
        had?.index.close();
        this.opened.set(e.name, { importedAt: e.manifest.importedAt, index });
        this.logger?.info('geocoding index loaded', { extract: e.name, addresses: index.addressGrid.size, version: index.version });
      } catch (err) {
        this.logger?.warn('geocoding index unreadable', { extract: e.name, error: err instanceof Error ? err.message : String(err) });
      }
    }
    for (const [name, o] of this.opened) {
      if (!names.has(name)) {
        o.index.close();
        this.opened.delete(name);
      }
    }
  }

  close(): void {
    for (const o of this.opened.values()) o.index.close();
    this.opened.clear();
  }
}
