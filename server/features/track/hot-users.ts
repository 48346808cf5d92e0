// The users this node last tracked, kept in memory under their track lock's key (#14): reading the user
// was a findOne and a JSON.parse of a ~4 KiB document per update (8.5 % of the gateway's main thread in
// bench/track) and, on PostgreSQL, one more round trip. A copy here may be stale (another node, a trip or a
// DELETE changed the user), so it is only ever written back with the revision it was read at: a stale copy
// fails that check, is dropped, and the update runs again from the store (track-service.ts).
//
// Bounded by count, least recently used first out (core/cache). A user document parses into roughly
// 2–3 times its JSON size of heap (docs/configuration.md, WAYMARK_TRACK_HOT_USERS, has the measured figure).
import { LeastRecentlyUsed } from '../../../core/cache/least-recently-used';
import type { UserDoc } from '../../../core/model/user';

/** Users by their track lock's key; capacity 0 keeps none (WAYMARK_TRACK_HOT_USERS=0). */
export class HotUsers extends LeastRecentlyUsed<string, UserDoc> {}
