// The geocoding indexes of every complete extract in the data directory (data/osm/extract-layout.ts):
// an extract counts once its manifest exists, and the set is looked at again at most every
// `reloadCheckMs`, so a `waymark data import` while serving is picked up without a restart. A
// re-import swaps the whole folder, so an index is reopened when its manifest changes.
import fs from 'node:fs';
import path from 'node:path';
import { EXTRACT_NAME, extractsDir, MANIFEST_FILE, stageDir } from '../../../../data/osm/extract-layout';
import { INDEX_FILE } from '../../../../data/osm/stages/geocoding/index-schema';
import type { Logger } from '../../../http/logger';
import { ExtractIndex } from './extract-index';

interface Opened {
  stamp: string;
  index: ExtractIndex;
}

export class ExtractIndexes {
  private opened = new Map<string, Opened>();
  private checkedAt = -Infinity;

  constructor(
    private readonly dataDir: string,
    private readonly reloadCheckMs: number,
    private readonly logger?: Logger,
  ) {}

  current(now = Date.now()): ExtractIndex[] {
    if (now - this.checkedAt >= this.reloadCheckMs) {
      this.checkedAt = now;
      this.refresh();
    }
    return [...this.opened.values()].map((o) => o.index);
  }

  private refresh(): void {
    const root = extractsDir(this.dataDir);
    const seen = new Set<string>();
    let names: string[] = [];
    try {
      names = fs.readdirSync(root).filter((n) => EXTRACT_NAME.test(n));
    } catch {
      names = [];
    }
    for (const name of names) {
      let stamp: string;
      try {
        const st = fs.statSync(path.join(root, name, MANIFEST_FILE));
        fs.accessSync(path.join(stageDir(this.dataDir, name, 'geocoding'), INDEX_FILE));
        stamp = `${st.mtimeMs}:${st.ino}`;
      } catch {
        continue;
      }
      seen.add(name);
      const had = this.opened.get(name);
      if (had?.stamp === stamp) continue;
      try {
        const index = new ExtractIndex(name, stageDir(this.dataDir, name, 'geocoding'));
        had?.index.close();
        this.opened.set(name, { stamp, index });
        this.logger?.info('geocoding index loaded', { extract: name, addresses: index.addressGrid.size });
      } catch (err) {
        this.logger?.warn('geocoding index unreadable', { extract: name, error: err instanceof Error ? err.message : String(err) });
      }
    }
    for (const [name, o] of this.opened) {
      if (!seen.has(name)) {
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
