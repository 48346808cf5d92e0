// Built-in TLS (WAYMARK_TLS_CERT / WAYMARK_TLS_KEY): an HTTPS server whose certificate is read from two
// PEM files and read again when they change, so a renewal (certbot, an internal CA's agent) needs no
// restart. Files are looked at by polling their stat once a period rather than with fs.watch: renewals
// usually replace a file by renaming or re-pointing a symlink, which a watch on the old inode misses.
import fs from 'node:fs';
import https from 'node:https';
import tls from 'node:tls';
import type { RequestListener } from 'node:http';
import type { Logger } from '../../ports/logger';

export interface TlsFiles {
  /** PEM certificate chain: the server's certificate first, then intermediates. */
  certFile: string;
  /** PEM private key of that certificate. */
  keyFile: string;
}

interface LoadedPair {
  cert: Buffer;
  key: Buffer;
}

/** What identifies a version of a file without reading it: a renewal changes at least one of these. */
function stamp(file: string): string {
  const s = fs.statSync(file);
  return `${s.ino}:${s.size}:${s.mtimeMs}`;
}

/**
 * Reads and checks the pair; throws a message naming the file at fault. createSecureContext refuses a
 * key that does not belong to the certificate, which is what a renewal caught halfway looks like.
 */
export function readTlsPair(files: TlsFiles): LoadedPair {
  const read = (file: string, what: string): Buffer => {
    try {
      return fs.readFileSync(file);
    } catch (err) {
      throw new Error(`cannot read the TLS ${what} ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  };
  const pair = { cert: read(files.certFile, 'certificate (WAYMARK_TLS_CERT)'), key: read(files.keyFile, 'key (WAYMARK_TLS_KEY)') };
  try {
    tls.createSecureContext(pair);
  } catch (err) {
    throw new Error(`the TLS certificate ${files.certFile} and key ${files.keyFile} cannot be used together: ${(err as Error).message}`);
  }
  return pair;
}

export interface ReloadingHttpsServer {
  server: https.Server;
  /** Stops looking at the files. */
  stopWatching(): void;
}

/**
 * An HTTPS server for `app` serving the pair in `files`, re-read within `checkMs` of a change. A pair
 * that cannot be used (a renewal caught between its two writes, a typo) is logged once and the
 * previous certificate stays in service until a usable pair appears.
 */
export function reloadingHttpsServer(files: TlsFiles, app: RequestListener, logger: Logger, checkMs = 1000): ReloadingHttpsServer {
  const server = https.createServer(readTlsPair(files), app);
  const stamps = (): string => `${stamp(files.certFile)}|${stamp(files.keyFile)}`;
  let served = stamps();
  let refused: string | undefined;
  const timer = setInterval(() => {
    let now: string;
    try {
      now = stamps();
    } catch {
      return; // a file is being replaced this instant: look again next period
    }
    if (now === served || now === refused) return;
    try {
      server.setSecureContext(readTlsPair(files));
      served = now;
      refused = undefined;
      logger.info('tls certificate reloaded', { cert: files.certFile });
    } catch (err) {
      refused = now;
      logger.warn('tls certificate not reloaded; the previous one stays in service', { reason: (err as Error).message });
    }
  }, checkMs);
  // A serving process is kept alive by its socket, not by this timer.
  timer.unref();
  return { server, stopWatching: () => clearInterval(timer) };
}
