// The imported OSM extracts a running gateway serves: every `<dataDir>/extracts/<name>/` whose manifest
// exists (core/formats/extract-layout.ts). `waymark data import` and `remove` change that folder while the
// gateway runs; the catalog looks at the manifests at most every `checkMs` (from the scheduler, and on
// `current()` when the period has passed) and tells subscribers (router, geocoder, places) when the
// set changed, so they reload without a restart (the manifests' signature: adapters/data-dir).
import fs from 'node:fs';
import path from 'node:path';
import { EXTRACT_NAME, MANIFEST_FILE, extractsDir, type ExtractManifest } from '../../core/formats/extract-layout';
import { readManifest } from '../../core/formats/extract-folders';
import { filesSignature } from '../data-dir/files-signature';

export interface LoadedExtract {
  name: string;
  /** `<dataDir>/extracts/<name>`: stage folders are `path.join(dir, stage)`. */
  dir: string;
  manifest: ExtractManifest;
}

export type ExtractListener = (extracts: readonly LoadedExtract[]) => void;

export interface ExtractCatalogOptions {
  dataDir: string;
  /** Least time between two looks, ms; 0 looks on every `current()`. */
  checkMs: number;
}

export class ExtractCatalog {
  private readonly dir: string;
  private signature: string | undefined;
  private extracts: readonly LoadedExtract[] = [];
  private nextCheckMs = 0;
  private readonly listeners = new Set<ExtractListener>();
  /** Folders with a manifest that could not be read, by name: shown by operators' tools. */
  problems: Record<string, string> = {};

  constructor(private readonly options: ExtractCatalogOptions) {
    this.dir = extractsDir(options.dataDir);
  }

  /** The loaded extracts, sorted by name. */
  current(nowMs: number = Date.now()): readonly LoadedExtract[] {
    if (nowMs >= this.nextCheckMs) this.check(nowMs);
    return this.extracts;
  }

  /** Calls `listener` after every change of the set; returns the unsubscribe. */
  subscribe(listener: ExtractListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Looks at the folder now; true when the set changed (listeners have then been told). */
  check(nowMs: number = Date.now()): boolean {
    this.nextCheckMs = nowMs + this.options.checkMs;
    const look = this.look();
    // An import is between its two renames: the next look sees the new extract.
    if (look === null || look.signature === this.signature) return false;
    this.signature = look.signature;
    const extracts: LoadedExtract[] = [];
    const problems: Record<string, string> = {};
    for (const name of look.names) {
      const dir = path.join(this.dir, name);
      try {
        extracts.push({ name, dir, manifest: readManifest(dir) });
      } catch (err) {
        problems[name] = err instanceof Error ? err.message : String(err);
      }
    }
    this.extracts = extracts;
    this.problems = problems;
    let failure: unknown;
    for (const listener of this.listeners) {
      try {
        listener(extracts);
      } catch (err) {
        failure ??= err;
      }
    }
    if (failure !== undefined) throw failure;
    return true;
  }

  private look(): { names: string[]; signature: string } | null {
    let entries: string[];
    try {
      entries = fs.readdirSync(this.dir);
    } catch {
      return { names: [], signature: 'absent' };
    }
    // No manifest: an unfinished folder, not served.
    const { present: names, signature } = filesSignature(
      entries.sort().filter((name) => EXTRACT_NAME.test(name)).map((name) => ({ label: name, path: path.join(this.dir, name, MANIFEST_FILE) })),
    );
    const swapping = entries.some((e) => {
      const m = /^\.old-(.+)-\d+$/.exec(e);
      return m !== null && !names.includes(m[1]);
    });
    if (swapping) return null;
    return { names, signature };
  }
}
