// Imported boundaries reach a running gateway without a restart: `waymark regions import` (or any copy
// of an importer output) changes <dataDir>/regions/, and the next lookup after the check period sees
// it. The files' signature (adapters/data-dir) is compared, not the directory's own mtime.
import fs from 'node:fs';
import path from 'node:path';
import { boundaryDirectory } from '../../../core/formats/boundaries/boundary-file';
import { filesSignature } from '../../../adapters/data-dir/files-signature';

export interface BoundaryWatchOptions {
  dataDir: string;
  /** Least time between two looks at the directory, ms; 0 looks on every call. */
  checkMs: number;
  /** Called when the directory differs from the last look; the first look counts as a change. */
  onChange(): void;
}

export class BoundaryWatch {
  private readonly dir: string;
  private signature: string | undefined;
  private nextCheckMs = 0;

  constructor(private readonly options: BoundaryWatchOptions) {
    this.dir = boundaryDirectory(options.dataDir);
  }

  /** Looks at the directory when the period has passed; `nowMs` is the caller's clock reading. */
  check(nowMs: number): void {
    if (nowMs < this.nextCheckMs) return;
    this.nextCheckMs = nowMs + this.options.checkMs;
    const current = this.read();
    if (current !== this.signature) this.options.onChange();
    this.signature = current;
  }

  private read(): string {
    let names: string[];
    try {
      names = fs.readdirSync(this.dir).filter((n) => n.endsWith('.json') && !n.startsWith('.')).sort();
    } catch {
      return 'absent';
    }
    return filesSignature(names.map((name) => ({ label: name, path: path.join(this.dir, name) }))).signature;
  }
}
