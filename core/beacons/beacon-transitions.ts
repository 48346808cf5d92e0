// Which beacons a user entered and exited with one update: one pure function from (beacons the user
// was at, what the update ranged, where it is) to the new set and its transitions.
//
// The rule:
// - an update that carries a beacon list (even an empty one) is the truth: the user is at exactly the
//   known, enabled beacons in it. Those new to the user are entered, those missing are exited;
// - an update without a list (the SDK did not range, e.g. beacons are off in its tracking options)
//   says nothing about beacons, so the set is kept, except beacons farther from the new location than
//   the beacon sync area plus the location's accuracy: Bluetooth ranges tens of metres, so a user a
//   kilometre away has left (exited);
// - a beacon deleted or disabled since the user entered it leaves the set without an event (a
//   disabled beacon generates no events).
import { haversineMeters } from '../geo/sphere';
import type { LngLat } from '../types';
import type { BeaconIndex, IndexedBeacon } from './beacon-index';
import type { RangedBeacon } from './ranged-beacon';

/** A beacon the user is at, kept on the user between updates. */
export interface BeaconPresence {
  beaconId: string;
  /** ISO time of entry, for the exit's `duration`. */
  enteredAt: string;
}

export interface BeaconTransitionInput {
  before: readonly BeaconPresence[];
  /** undefined when the update carried no beacon list. */
  ranged: readonly RangedBeacon[] | undefined;
  index: BeaconIndex;
  location: LngLat;
  accuracy: number;
  at: Date;
}

export interface BeaconExit {
  beacon: IndexedBeacon;
  /** Minutes between entry and exit. */
  duration: number;
}

export interface BeaconTransitions {
  after: BeaconPresence[];
  entered: IndexedBeacon[];
  exited: BeaconExit[];
}

/** The spec's beacon sync area: also how far from a beacon a user is certainly no longer at it. */
export const BEACON_SYNC_RADIUS_M = 1_000;

export function beaconTransitions(input: BeaconTransitionInput): BeaconTransitions {
  const { before, ranged, index, location, accuracy, at } = input;
  const atIso = at.toISOString();
  const still = new Map<string, BeaconPresence>();
  const exited: BeaconExit[] = [];
  const matched = ranged === undefined ? undefined : index.match(ranged);
  const present = matched === undefined ? undefined : new Set(matched.map((b) => b._id));

  for (const p of before) {
    const beacon = index.get(p.beaconId);
    if (!beacon || still.has(p.beaconId)) continue;
    const gone = present !== undefined
      ? !present.has(p.beaconId)
      : haversineMeters(location, beacon.geometry.coordinates) > BEACON_SYNC_RADIUS_M + accuracy;
    if (gone) exited.push({ beacon, duration: minutesBetween(p.enteredAt, at) });
    else still.set(p.beaconId, p);
  }

  const entered: IndexedBeacon[] = [];
  if (matched !== undefined) {
    for (const beacon of matched) {
      if (still.has(beacon._id)) continue;
      still.set(beacon._id, { beaconId: beacon._id, enteredAt: atIso });
      entered.push(beacon);
    }
  }
  return { after: [...still.values()], entered, exited };
}

function minutesBetween(fromIso: string, to: Date): number {
  const ms = to.getTime() - Date.parse(fromIso);
  return Number.isFinite(ms) && ms > 0 ? Math.round(ms / 600) / 100 : 0;
}
