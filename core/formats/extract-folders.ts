// The folder work of imports, next to extract-layout.ts: a staging folder per import, a lock per name,
// the swap of a finished import into place, removal, listing, and clean-up after crashed imports.
//
// The swap is two renames on one file system (`<name>` → `.old-<name>-<pid>`, staging → `<name>`): a
// reader sees the old extract, then for the instant between the renames none, then the new one. A
// crash between the two leaves `.old-…`, which the next import or list puts back.
import fs from 'node:fs';
import path from 'node:path';
import { EXTRACT_NAME, MANIFEST_FILE, extractDir, extractsDir, type ExtractManifest } from './extract-layout';

const STAGING = /^\.staging-(.+)-(\d+)$/;
const OLD = /^\.old-(.+)-(\d+)$/;
const REMOVING = /^\.removing-(.+)-(\d+)$/;
const LOCK = /^\.lock-(.+)$/;

export class ExtractBusy extends Error {}

function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes what crashed imports and removals left behind, and restores an extract caught mid-swap. */
export function cleanLeftovers(dataDir: string): void {
  const dir = extractsDir(dataDir);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const entry of names) {
    const full = path.join(dir, entry);
    const staging = STAGING.exec(entry) ?? REMOVING.exec(entry);
    if (staging && !alive(Number(staging[2]))) fs.rmSync(full, { recursive: true, force: true });
    const old = OLD.exec(entry);
    if (old && !alive(Number(old[2]))) {
      const target = path.join(dir, old[1]);
      if (fs.existsSync(target)) fs.rmSync(full, { recursive: true, force: true });
      else fs.renameSync(full, target);
    }
    const lock = LOCK.exec(entry);
    if (lock) {
      const pid = Number(fs.readFileSync(full, 'utf8'));
      if (!alive(pid)) fs.rmSync(full, { force: true });
    }
  }
}

/** Takes the per-name lock: one import or removal of a name at a time. Returns the release. */
export function lockExtract(dataDir: string, name: string): () => void {
  const file = path.join(extractsDir(dataDir), `.lock-${name}`);
  fs.mkdirSync(extractsDir(dataDir), { recursive: true });
  try {
    fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const pid = Number(fs.readFileSync(file, 'utf8'));
    if (alive(pid)) throw new ExtractBusy(`another import or removal of "${name}" is running (pid ${pid})`);
    fs.writeFileSync(file, String(process.pid));
  }
  return () => fs.rmSync(file, { force: true });
}

export function stagingDir(dataDir: string, name: string): string {
  return path.join(extractsDir(dataDir), `.staging-${name}-${process.pid}`);
}

/** Writes the manifest (last, and durably), then renames the staged extract over `<name>`. */
export function commitExtract(dataDir: string, staging: string, manifest: ExtractManifest): string {
  const manifestFile = path.join(staging, MANIFEST_FILE);
  const fd = fs.openSync(manifestFile, 'w');
  try {
    fs.writeSync(fd, JSON.stringify(manifest, null, 2) + '\n');
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  const target = extractDir(dataDir, manifest.name);
  const old = path.join(extractsDir(dataDir), `.old-${manifest.name}-${process.pid}`);
  const replacing = fs.existsSync(target);
  if (replacing) fs.renameSync(target, old);
  fs.renameSync(staging, target);
  if (replacing) fs.rmSync(old, { recursive: true, force: true });
  return target;
}

/** Takes `<name>` out of service at once (a rename), then deletes it. False when there was none. */
export function removeExtract(dataDir: string, name: string): boolean {
  const target = extractDir(dataDir, name);
  if (!fs.existsSync(target)) return false;
  const doomed = path.join(extractsDir(dataDir), `.removing-${name}-${process.pid}`);
  fs.renameSync(target, doomed);
  fs.rmSync(doomed, { recursive: true, force: true });
  return true;
}

export interface ListedExtract {
  name: string;
  dir: string;
  manifest?: ExtractManifest;
  /** Why the folder is not served (no or unreadable manifest). */
  problem?: string;
  bytes: number;
}

function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    total += entry.isDirectory() ? folderBytes(full) : fs.statSync(full).size;
  }
  return total;
}

export function readManifest(dir: string): ExtractManifest {
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, MANIFEST_FILE), 'utf8')) as ExtractManifest;
  if (manifest?.format !== 'waymark-extract') throw new Error(`${MANIFEST_FILE} is not a Waymark extract manifest`);
  return manifest;
}

export function listExtracts(dataDir: string): ListedExtract[] {
  const dir = extractsDir(dataDir);
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => EXTRACT_NAME.test(n)).sort();
  } catch {
    return [];
  }
  return names.map((name) => {
    const full = path.join(dir, name);
    const listed: ListedExtract = { name, dir: full, bytes: folderBytes(full) };
    try {
      listed.manifest = readManifest(full);
    } catch (err) {
      listed.problem = (err as NodeJS.ErrnoException).code === 'ENOENT' ? `no ${MANIFEST_FILE}` : (err as Error).message;
    }
    return listed;
  });
}
