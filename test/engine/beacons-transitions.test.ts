// The beacon engine: the index finds enabled beacons by what a device ranges and by distance; the
// transition rule (beacon-transitions.ts) as a table of (was at, ranged, where) → (is at, entered, exited).
import { BEACON_SYNC_RADIUS_M, BeaconIndex, beaconTransitions, type BeaconPresence, type IndexedBeacon, type RangedBeacon } from '../../core/beacons';
import { destinationPoint } from '../../core/geo/sphere';
import type { LngLat } from '../../core/types';

const HERE: LngLat = [-73.975363, 40.783826];
const UUID = 'b9407f30-f5f8-466e-aff9-25556b57fe6d';

function ibeacon(id: string, minor: string, over: Partial<IndexedBeacon> = {}): IndexedBeacon {
  return { _id: id, type: 'ibeacon', uuid: UUID, major: '100', minor, enabled: true, geometry: { type: 'Point', coordinates: HERE }, ...over };
}

const REGISTER = ibeacon('a'.repeat(24), '1');
const DOOR = ibeacon('b'.repeat(24), '2', { geometry: { type: 'Point', coordinates: destinationPoint(HERE, 900, 90) } });
const OFF = ibeacon('c'.repeat(24), '3', { enabled: false });
const SHELF: IndexedBeacon = {
  _id: 'd'.repeat(24), type: 'eddystone', uid: '0123456789abcdef0123', instance: 'aabbccddeeff', enabled: true,
  geometry: { type: 'Point', coordinates: destinationPoint(HERE, 1100, 0) },
};
const index = new BeaconIndex([REGISTER, DOOR, OFF, SHELF]);

const ranged = (minor: string): RangedBeacon => ({ type: 'ibeacon', uuid: UUID, major: '100', minor });
const at = new Date('2026-11-23T12:00:00.000Z');
const was = (...ids: string[]): BeaconPresence[] => ids.map((beaconId) => ({ beaconId, enteredAt: '2026-11-23T11:30:00.000Z' }));

describe('BeaconIndex', () => {
  test('matches iBeacon and Eddystone identifiers and _id-only entries; never a disabled beacon; each once', () => {
    const found = index.match([
      ranged('1'), ranged('1'), ranged('3'), ranged('9'),
      { type: 'eddystone', uid: SHELF.uid as string, instance: SHELF.instance as string },
      { type: 'id', id: DOOR._id },
    ]);
    expect(found.map((b) => b._id)).toEqual([REGISTER._id, SHELF._id, DOOR._id]);
  });

  test('near: within the radius, nearest first, enabled only, bounded by limit', () => {
    expect(index.near(HERE, BEACON_SYNC_RADIUS_M, 10).map((b) => b._id)).toEqual([REGISTER._id, DOOR._id]);
    expect(index.near(HERE, 2_000, 10).map((b) => b._id)).toEqual([REGISTER._id, DOOR._id, SHELF._id]);
    expect(index.near(HERE, 2_000, 1).map((b) => b._id)).toEqual([REGISTER._id]);
    expect(index.size).toBe(3);
  });
});

describe('beaconTransitions', () => {
  const far = destinationPoint(HERE, 5_000, 180);
  const cases: Array<[string, BeaconPresence[], RangedBeacon[] | undefined, LngLat, string[], string[], string[]]> = [
    // name, was at, ranged, location, is at, entered, exited
    ['first ranging enters', [], [ranged('1')], HERE, [REGISTER._id], [REGISTER._id], []],
    ['still ranged: no event', was(REGISTER._id), [ranged('1')], HERE, [REGISTER._id], [], []],
    ['empty list exits', was(REGISTER._id), [], HERE, [], [], [REGISTER._id]],
    ['another beacon instead: exit and entry', was(REGISTER._id), [ranged('2')], HERE, [DOOR._id], [DOOR._id], [REGISTER._id]],
    ['no list nearby keeps', was(REGISTER._id), undefined, HERE, [REGISTER._id], [], []],
    ['no list and kilometres away exits', was(REGISTER._id), undefined, far, [], [], [REGISTER._id]],
    ['no list never enters', [], undefined, HERE, [], [], []],
    ['unknown and disabled beacons ranged: nothing', [], [ranged('9'), ranged('3')], HERE, [], [], []],
    ['a beacon gone from the index leaves without an event', was('e'.repeat(24), REGISTER._id), [ranged('1')], HERE, [REGISTER._id], [], []],
  ];
  test.each(cases)('%s', (_name, before, list, location, after, entered, exited) => {
    const t = beaconTransitions({ before, ranged: list, index, location, accuracy: 20, at });
    expect(t.after.map((p) => p.beaconId)).toEqual(after);
    expect(t.entered.map((b) => b._id)).toEqual(entered);
    expect(t.exited.map((e) => e.beacon._id)).toEqual(exited);
  });

  test('an exit carries minutes since entry; an entry is stamped with the update time', () => {
    const out = beaconTransitions({ before: was(REGISTER._id), ranged: [ranged('2')], index, location: HERE, accuracy: 5, at });
    expect(out.exited[0].duration).toBe(30);
    expect(out.after).toEqual([{ beaconId: DOOR._id, enteredAt: at.toISOString() }]);
  });
});
