// Which store failures are the environment's, not a request's: the disk is full, the data directory or
// database is read-only, the disk answers I/O errors, or the database connection is gone. The gateway
// answers those 503 with Retry-After and logs them once in a while (not a stack per request), and
// readiness reports the node not ready while they last. Everything else a store throws stays a bug (500).
//
// Both adapters' drivers are recognised here by their codes, so that the gateway needs no driver:
// better-sqlite3's SQLITE_* codes (extended codes keep their primary's prefix), Node's errno codes
// (files beside the database, sockets), and PostgreSQL's SQLSTATE classes and pg's connection messages.

export type StoreFault = 'disk-full' | 'read-only' | 'io-error' | 'connection-lost';

const ERRNO: Record<string, StoreFault> = {
  ENOSPC: 'disk-full', EDQUOT: 'disk-full', EROFS: 'read-only', EIO: 'io-error',
  ECONNREFUSED: 'connection-lost', ECONNRESET: 'connection-lost', ETIMEDOUT: 'connection-lost', EPIPE: 'connection-lost',
  EHOSTUNREACH: 'connection-lost', ENETUNREACH: 'connection-lost', EAI_AGAIN: 'connection-lost',
};

/** PostgreSQL SQLSTATEs: 08 connection exception; 57P01-03 the server shut down or is starting; 53 out of resources. */
const SQLSTATE: Record<string, StoreFault> = {
  '53100': 'disk-full', '25006': 'read-only', '58030': 'io-error',
  '57P01': 'connection-lost', '57P02': 'connection-lost', '57P03': 'connection-lost', '53300': 'connection-lost',
};

/** pg's own words when a socket closes under a query or a pool cannot connect in time. */
const CONNECTION_MESSAGES = [/Connection terminated/i, /timeout exceeded when trying to connect/i, /connection is closed/i, /Client has encountered a connection error/i];

function faultOfOne(err: unknown): StoreFault | undefined {
  if (err === null || typeof err !== 'object') return undefined;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (code === 'SQLITE_FULL') return 'disk-full';
    if (code.startsWith('SQLITE_READONLY')) return 'read-only';
    if (code.startsWith('SQLITE_IOERR') || code === 'SQLITE_CANTOPEN') return 'io-error';
    if (ERRNO[code]) return ERRNO[code];
    if (SQLSTATE[code]) return SQLSTATE[code];
    if (/^08[0-9A-Z]{3}$/.test(code)) return 'connection-lost';
  }
  // Node reports a refused dual-stack connect as an AggregateError of one error per address.
  if (err instanceof AggregateError) for (const one of err.errors) if (faultOfOne(one)) return faultOfOne(one);
  const message = (err as { message?: unknown }).message;
  if (typeof message === 'string' && CONNECTION_MESSAGES.some((m) => m.test(message))) return 'connection-lost';
  return undefined;
}

/** The fault behind `err` (or behind its `cause`s), if it is one of the environment's. */
export function storeFaultOf(err: unknown): StoreFault | undefined {
  let at: unknown = err;
  for (let depth = 0; depth < 5 && at !== undefined && at !== null; depth++) {
    const fault = faultOfOne(at);
    if (fault) return fault;
    at = (at as { cause?: unknown }).cause;
  }
  return undefined;
}
