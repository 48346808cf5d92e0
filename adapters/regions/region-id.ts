import { createHash } from 'node:crypto';

/**
 * A region's `_id`: the first 24 hex digits of sha1("<type>:<code>"). Looks like a
 * Mongo ObjectId (what Radar's SDKs expect) and is the same on every node and after
 * every restart, because it depends on nothing but the region's identity.
 */
export function regionId(type: string, code: string): string {
  return createHash('sha1').update(`${type}:${code}`).digest('hex').slice(0, 24);
}
