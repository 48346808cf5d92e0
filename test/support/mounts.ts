// Small file systems for fault tests: a tmpfs of a few MiB to fill (a full disk) and a read-only bind
// mount (a read-only data directory). Mounting needs root and a kernel that lets this container mount;
// `mounting()` says whether it can, for requires(): elsewhere the tests skip with one line.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Need } from './requires';

function run(...args: string[]): void {
  execFileSync(args[0], args.slice(1), { stdio: 'pipe' });
}

let probed: string | undefined | null = null;

/** Whether this process can mount a tmpfs (tried once, on a throwaway folder). */
export function mounting(): Need {
  if (probed === null) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-mount-probe-'));
    try {
      run('mount', '-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir);
      run('umount', dir);
      probed = undefined;
    } catch (err) {
      probed = `permission to mount a tmpfs (${(err as Error).message.split('\n')[0]})`;
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  return { missing: probed, how: 'run as root in a container or host that allows mount(2)' };
}

/** A fresh folder with a tmpfs of `mib` MiB mounted on it. */
export function mountTmpfs(mib: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-tmpfs-'));
  run('mount', '-t', 'tmpfs', '-o', `size=${mib}m`, 'tmpfs', dir);
  return dir;
}

/** A fresh folder showing `source` read-only. */
export function mountReadOnly(source: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-ro-'));
  run('mount', '--bind', source, dir);
  run('mount', '-o', 'remount,ro,bind', dir);
  return dir;
}

/** Unmounts and removes the folder; lazily, so a file still open in a closing server cannot keep it. */
export function unmount(dir: string): void {
  try {
    run('umount', '-l', dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Fills the file system holding `dir` with one file until it is full; returns the file (remove it to free the space). */
export function fillDisk(dir: string): string {
  const file = path.join(dir, 'filler.bin');
  const chunk = Buffer.alloc(1 << 20, 1);
  const fd = fs.openSync(file, 'w');
  try {
    for (;;) {
      try {
        fs.writeSync(fd, chunk);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
        // The last MiB did not fit: fill the rest in pieces, halving their size down to 512 bytes.
        for (let size = chunk.length >> 1; size >= 512; size >>= 1) {
          try {
            fs.writeSync(fd, chunk, 0, size);
            size <<= 1;
          } catch {
            // Too big: the loop tries half.
          }
        }
        return file;
      }
    }
  } finally {
    fs.closeSync(fd);
  }
}
