// Which region events one location update produces (DESIGN §3 step 7), as Radar names them:
// user.entered_region_country / _state / _dma / _postal_code and the user.exited_region_* pairs.
// Per type, the exit of the old region comes before the entry of the new one, and types go
// country → state → dma → postal code (the order of Radar's SDK fixture). Pure.
import type { Region, RegionSet } from '../../../ports/regions';

/** The region types a Radar user carries, in event order. */
export const USER_REGION_TYPES = ['country', 'state', 'dma', 'postalCode'] as const;
export type UserRegionType = (typeof USER_REGION_TYPES)[number];

export type UserRegions = Partial<Record<UserRegionType, Region>>;

const EVENT_SUFFIX: Record<UserRegionType, string> = { country: 'country', state: 'state', dma: 'dma', postalCode: 'postal_code' };

export interface RegionTransition {
  type: string;
  direction: 'entered' | 'exited';
  regionType: UserRegionType;
  region: Region;
}

/** The four user region fields of a stored user or a lookup result; other keys are ignored. */
export function userRegionsOf(source: Partial<Record<UserRegionType, unknown>> | RegionSet | undefined): UserRegions {
  const out: UserRegions = {};
  if (source === undefined) return out;
  for (const type of USER_REGION_TYPES) {
    const value = source[type];
    if (isRegion(value)) out[type] = value;
  }
  return out;
}

/**
 * Events from the regions before and after an update. A region is the same one when its `_id` is
 * (the id derives from type and code): a re-import that renames a region moves no one.
 */
export function regionTransitions(before: UserRegions, after: UserRegions): RegionTransition[] {
  const out: RegionTransition[] = [];
  for (const regionType of USER_REGION_TYPES) {
    const was = before[regionType];
    const is = after[regionType];
    if (was?._id === is?._id) continue;
    const suffix = EVENT_SUFFIX[regionType];
    if (was !== undefined) out.push({ type: `user.exited_region_${suffix}`, direction: 'exited', regionType, region: was });
    if (is !== undefined) out.push({ type: `user.entered_region_${suffix}`, direction: 'entered', regionType, region: is });
  }
  return out;
}

function isRegion(value: unknown): value is Region {
  if (value === null || typeof value !== 'object') return false;
  const r = value as Record<string, unknown>;
  return typeof r._id === 'string' && typeof r.type === 'string' && typeof r.code === 'string' && typeof r.name === 'string';
}
