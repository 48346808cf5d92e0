// Every mode's speeds on a way, evaluated once per distinct tag set the profiles read (tag-set-memo.ts):
// four profiles over a dozen lists of keys each were the largest part of the routing stage's reading,
// and the ways of a region repeat a few thousand tag sets (Baltimore ×8×8: 463 k ways; the hit rates
// of real extracts are in docs/data-import.md). The verdicts are shared between ways: frozen.
import type { OsmTags } from '../../../stage';
import { TagSetMemo, type TagSetMemoCounts } from '../../../tag-set-memo';
import { waySpeeds, type WaySpeeds } from './profile';
import { MODES, PROFILES } from './profiles';

/** Per mode (MODES order), its speeds on the way, or null when it may not use it. */
export type ModeSpeeds = readonly (Readonly<WaySpeeds> | null)[];

function frozen(s: WaySpeeds | null): Readonly<WaySpeeds> | null {
  if (s === null) return null;
  if (s.pushing !== undefined) Object.freeze(s.pushing);
  return Object.freeze(s);
}

/** Every mode's speeds on a way, evaluated now. */
export function modeSpeeds(tags: OsmTags, lengthMetres: number): ModeSpeeds {
  return Object.freeze(MODES.map((m) => frozen(waySpeeds(PROFILES[m], tags, lengthMetres))));
}

export class WaySpeedsMemo {
  /** The length of the way being evaluated: the profiles read it only for a timed crossing (below). */
  private lengthMetres = 0;
  private readonly memo = new TagSetMemo<ModeSpeeds>((tags) => modeSpeeds(tags, this.lengthMetres));

  speeds(tags: OsmTags, lengthMetres: number): ModeSpeeds {
    // A crossing of known `duration` (ferries, movable bridges) is the one verdict that depends on the
    // way's length as well as its tags (its speed spreads the duration over the length): not kept.
    if (tags.duration !== undefined) return modeSpeeds(tags, lengthMetres);
    this.lengthMetres = lengthMetres;
    return this.memo.get(tags);
  }

  counts(): TagSetMemoCounts {
    return this.memo.counts();
  }
}
