// How a running gateway notices that an importer changed its data directory (extracts, boundaries):
// a signature of the files that matter, each by name, inode, size and modification time. A folder's own
// mtime is not enough: a file overwritten in place leaves it unchanged, and a rename over a file
// changes the inode but maybe neither size nor mtime.
import fs from 'node:fs';

export interface WatchedFile {
  /** What the signature calls the file (its name within the watched folder). */
  label: string;
  path: string;
}

/** The files that exist now (by label) and their signature; a file gone between listing and stat is absent. */
export function filesSignature(files: readonly WatchedFile[]): { present: string[]; signature: string } {
  const present: string[] = [];
  const parts: string[] = [];
  for (const f of files) {
    try {
      const st = fs.statSync(f.path);
      present.push(f.label);
      parts.push(`${f.label}:${st.ino}:${st.size}:${st.mtimeMs}`);
    } catch {
      // Absent: its absence is part of the signature.
    }
  }
  return { present, signature: parts.join('|') };
}
