// Advisory locks are named by a 64-bit integer. The key is hashed here rather than with the server's
// hashtext(), whose values are an implementation detail that may change between PostgreSQL versions.
import { createHash } from 'node:crypto';

/** A signed 64-bit lock id for `name`, as a decimal string (pg passes bigint parameters as text). */
export function advisoryKey(name: string): string {
  return createHash('sha256').update(name).digest().readBigInt64BE(0).toString();
}
