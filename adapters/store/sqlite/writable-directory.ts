// The SQLite store refuses to start on a directory it cannot write: on a read-only mount SQLite opens an
// existing file and serves reads, and every write then fails, so a gateway would report itself up and
// answer every update with an error. A file is created and removed there, since permission bits say
// nothing for root and nothing about a read-only mount's files.
import fs from 'node:fs';
import path from 'node:path';

export function assertWritableDirectory(dir: string): void {
  const probe = path.join(dir, `.write-check-${process.pid}`);
  try {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(probe, '');
    fs.rmSync(probe);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'EROFS' ? 'it is on a read-only file system' : code === 'ENOSPC' ? 'its disk is full' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (err as Error).message;
    const failure = new Error(`the data directory ${dir} cannot be written (${why}): the SQLite store needs to write there (WAYMARK_DATA_DIR)`, { cause: err });
    throw Object.assign(failure, { code });
  }
}
