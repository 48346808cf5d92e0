// The users this node last tracked, kept in memory under their track lock's key (#14): reading the user
// was a findOne and a JSON.parse of a ~4 KiB document per update (8.5 % of the gateway's main thread in
// bench/track) and, on PostgreSQL, one more round trip. A copy here may be stale (another node, a trip or a
// DELETE changed the user), so it is only ever written back with the revision it was read at: a stale copy
// fails that check, is dropped, and the update runs again from the store (track-service.ts).
//
// Bounded by count, least recently used first out. A user document parses into roughly 2–3 times its JSON
// size of heap (docs/configuration.md, WAYMARK_TRACK_HOT_USERS, has the measured figure).
import type { UserDoc } from '../../../core/model/user';

export class HotUsers {
  private readonly entries = new Map<string, UserDoc>();

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.entries.size;
  }

  /** The user last kept under `key`, now the most recently used. */
  get(key: string): UserDoc | undefined {
    const user = this.entries.get(key);
    if (user === undefined) return undefined;
    // A Map iterates in insertion order: re-inserting makes it the newest.
    this.entries.delete(key);
    this.entries.set(key, user);
    return user;
  }

  set(key: string, user: UserDoc): void {
    if (this.capacity <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, user);
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}
