// The routing profiles' decisions on single ways (tags as OSM writes them), maxspeed parsing, and
// turn-restriction relations: what each mode may use, in which direction, how fast.
import { parseDurationSeconds, parseMaxspeed } from '../../importers/osm/stages/routing/profiles/maxspeed';
import { forwardBackward, waySpeeds } from '../../importers/osm/stages/routing/profiles/profile';
import { PROFILES } from '../../importers/osm/stages/routing/profiles/profiles';
import { readRestriction } from '../../importers/osm/stages/routing/restrictions';
import { barrierBlocks, barrierSeconds } from '../../importers/osm/stages/routing/profiles/barriers';
import type { OsmRelation } from '../../importers/osm/stage';

const speeds = (mode: keyof typeof PROFILES, tags: Record<string, string>, length = 100) => waySpeeds(PROFILES[mode], tags, length);

test('maxspeed: numbers, units, national codes, nonsense', () => {
  expect(parseMaxspeed('50')).toBe(50);
  expect(parseMaxspeed('30 mph')).toBeCloseTo(48.28, 2);
  expect(parseMaxspeed('DE:urban')).toBe(50);
  expect(parseMaxspeed('FR:rural')).toBe(80);
  expect(parseMaxspeed('GB:nsl_single')).toBeCloseTo(96.56, 1);
  expect(parseMaxspeed('walk')).toBe(5);
  expect(parseMaxspeed('none')).toBe(140);
  expect(parseMaxspeed('fast')).toBeNull();
  expect(parseMaxspeed('99999')).toBeNull();
  expect(parseDurationSeconds('01:30')).toBe(5400);
  expect(parseDurationSeconds('PT45M')).toBe(2700);
});

test('classes per mode: footways, motorways, steps', () => {
  expect(speeds('car', { highway: 'footway' })).toBeNull();
  expect(speeds('foot', { highway: 'footway' })).toMatchObject({ forwardKph: 5, backwardKph: 5 });
  expect(speeds('bike', { highway: 'footway' })).toMatchObject({ forwardKph: 4 });
  expect(speeds('bike', { highway: 'footway', bicycle: 'designated' })).toMatchObject({ forwardKph: 15 });
  expect(speeds('foot', { highway: 'motorway' })).toBeNull();
  expect(speeds('bike', { highway: 'motorway' })).toBeNull();
  expect(speeds('car', { highway: 'motorway' })).toMatchObject({ forwardKph: 90, backwardKph: 0 });
  expect(speeds('car', { highway: 'steps' })).toBeNull();
});

test('oneway, reverse oneway, roundabouts, bicycle contraflow, pedestrians both ways', () => {
  expect(speeds('car', { highway: 'residential', oneway: 'yes' })).toMatchObject({ forwardKph: 25, backwardKph: 0 });
  expect(speeds('car', { highway: 'residential', oneway: '-1' })).toMatchObject({ forwardKph: 0, backwardKph: 25 });
  expect(speeds('car', { highway: 'primary', junction: 'roundabout' })).toMatchObject({ backwardKph: 0 });
  expect(speeds('bike', { highway: 'residential', oneway: 'yes', 'oneway:bicycle': 'no' })).toMatchObject({ forwardKph: 15, backwardKph: 15 });
  expect(speeds('bike', { highway: 'residential', oneway: 'yes', cycleway: 'opposite_lane' })).toMatchObject({ forwardKph: 15, backwardKph: 15 });
  // Against a one-way street a bike is pushed at walking pace (OSRM's bicycle profile), not ridden.
  expect(speeds('bike', { highway: 'residential', oneway: 'yes' })).toMatchObject({ forwardKph: 15, backwardKph: 4, pushing: { forward: false, backward: true } });
  expect(speeds('foot', { highway: 'residential', oneway: 'yes' })).toMatchObject({ forwardKph: 5, backwardKph: 5 });
  expect(speeds('car', { highway: 'residential', oneway: 'reversible' })).toBeNull();
});

test('access tags per mode, trucks and their limits', () => {
  expect(speeds('car', { highway: 'residential', access: 'no' })).toBeNull();
  expect(speeds('foot', { highway: 'residential', access: 'no', foot: 'yes' })).not.toBeNull();
  expect(speeds('car', { highway: 'residential', motor_vehicle: 'no' })).toBeNull();
  expect(speeds('bike', { highway: 'residential', motor_vehicle: 'no' })).not.toBeNull();
  expect(speeds('car', { highway: 'residential', motorcar: 'no', motor_vehicle: 'yes' })).toBeNull();
  expect(speeds('truck', { highway: 'primary', hgv: 'no' })).toBeNull();
  expect(speeds('car', { highway: 'primary', hgv: 'no' })).not.toBeNull();
  expect(speeds('truck', { highway: 'primary', hgv: 'delivery' })).not.toBeNull();
  expect(speeds('truck', { highway: 'primary', maxweight: '3.5' })).toBeNull();
  expect(speeds('truck', { highway: 'primary', maxheight: '3.5' })).toBeNull();
  expect(speeds('truck', { highway: 'primary', maxheight: "13'6\"" })).not.toBeNull();
  expect(speeds('truck', { highway: 'motorway' })!.forwardKph).toBe(80);
  expect(speeds('car', { highway: 'residential', 'motor_vehicle:backward': 'no' })).toMatchObject({ forwardKph: 25, backwardKph: 0 });
});

test('restricted access (private, destination…) keeps a car road open but marks it for the ends of a route', () => {
  expect(speeds('car', { highway: 'residential', access: 'private' })).toMatchObject({ forwardKph: 25, restricted: true });
  expect(speeds('car', { highway: 'service', motor_vehicle: 'destination' })).toMatchObject({ restricted: true });
  expect(speeds('car', { highway: 'residential', access: 'private', motorcar: 'yes' })).toMatchObject({ restricted: false });
  expect(speeds('car', { highway: 'residential' })).toMatchObject({ restricted: false });
  expect(speeds('foot', { highway: 'residential', access: 'private' })).toBeNull();
});

test('maxspeed sets the car speed at 80 %; ferries take their duration', () => {
  expect(speeds('car', { highway: 'primary', maxspeed: '50' })!.forwardKph).toBe(40);
  expect(speeds('car', { highway: 'primary', maxspeed: '30 mph' })!.forwardKph).toBeCloseTo(38.62, 1);
  const ferry = speeds('car', { route: 'ferry', duration: '00:30' }, 10_000)!;
  expect(ferry.durationSeconds).toBe(1800);
  expect(ferry.forwardKph).toBeCloseTo(20, 5);
  expect(speeds('car', { route: 'ferry', motor_vehicle: 'no' })).toBeNull();
  expect(speeds('foot', { route: 'ferry', motor_vehicle: 'no' })).not.toBeNull();
});

function relation(tags: Record<string, string>, members: OsmRelation['members']): OsmRelation {
  return { id: 1, tags, members };
}

test('turn restriction relations', () => {
  const m = [{ type: 'way' as const, ref: 10, role: 'from' }, { type: 'node' as const, ref: 5, role: 'via' }, { type: 'way' as const, ref: 11, role: 'to' }];
  expect(readRestriction(relation({ type: 'restriction', restriction: 'no_left_turn' }, m))).toEqual({ fromWays: [10], viaNode: 5, viaWays: [], toWays: [11], only: false, modes: ['car', 'truck'] });
  expect(readRestriction(relation({ type: 'restriction', restriction: 'only_straight_on', except: 'hgv' }, m))).toMatchObject({ only: true, modes: ['car'] });
  // Bicycles and pedestrians ignore turn restrictions, as in OSRM's bicycle and foot profiles.
  expect(readRestriction(relation({ type: 'restriction', 'restriction:bicycle': 'no_left_turn' }, m))).toBe('not-a-restriction');
  expect(readRestriction(relation({ type: 'restriction', 'restriction:hgv': 'no_right_turn' }, m))).toMatchObject({ modes: ['truck'] });
  // Through ways, in the relation's order.
  const throughWays = [m[0], { type: 'way' as const, ref: 7, role: 'via' }, { type: 'way' as const, ref: 8, role: 'via' }, m[2]];
  expect(readRestriction(relation({ type: 'restriction', restriction: 'no_left_turn' }, throughWays))).toMatchObject({ fromWays: [10], viaNode: -1, viaWays: [7, 8], toWays: [11] });
  // Several from ways only for no_entry, several to ways only for no_exit (OSRM ignores the others).
  const twoFrom = [m[0], { type: 'way' as const, ref: 12, role: 'from' }, m[1], m[2]];
  expect(readRestriction(relation({ type: 'restriction', restriction: 'no_entry' }, twoFrom))).toMatchObject({ fromWays: [10, 12], toWays: [11] });
  expect(readRestriction(relation({ type: 'restriction', restriction: 'no_exit' }, twoFrom))).toBe('unsupported');
  expect(readRestriction(relation({ type: 'restriction', restriction: 'no_right_turn' }, twoFrom))).toBe('unsupported');
  expect(readRestriction(relation({ type: 'multipolygon' }, m))).toBe('not-a-restriction');
});

test('barriers: bollards stop cars, not bikes or walkers; gates pass unless their access says no', () => {
  const blocks = (mode: keyof typeof PROFILES, tags: Record<string, string>) => barrierBlocks(PROFILES[mode], mode, tags);
  expect(blocks('car', { barrier: 'bollard' })).toBe(true);
  expect(blocks('bike', { barrier: 'bollard' })).toBe(false);
  expect(blocks('foot', { barrier: 'bollard' })).toBe(false);
  expect(blocks('car', { barrier: 'gate' })).toBe(false);
  expect(blocks('car', { barrier: 'gate', access: 'no' })).toBe(true);
  expect(blocks('car', { barrier: 'bollard', motor_vehicle: 'yes' })).toBe(false);
  expect(blocks('foot', { barrier: 'wall' })).toBe(true);
});

test('car access as OSRM: denied values, restricted ones on main classes only, directional reopening, semicolon lists', () => {
  for (const access of ['taxi', 'share_taxi', 'minibus', 'foot', 'restricted', 'official', 'emergency_vehicle', 'agricultural;forestry']) {
    expect(speeds('car', { highway: 'primary', access })).toBeNull();
  }
  for (const access of ['permit', 'residents', 'unknown', 'some_tag', 'private;yes']) expect(speeds('car', { highway: 'primary', access })).not.toBeNull();
  expect(speeds('car', { highway: 'primary', access: 'no', 'access:forward': 'yes' })).toMatchObject({ forwardKph: 65, backwardKph: 0 });
  expect(speeds('car', { highway: 'primary', access: 'yes', 'access:forward': 'yes', motorcar: 'no' })).toBeNull();
  expect(speeds('car', { highway: 'runway', access: 'private' })).toBeNull();
  expect(speeds('car', { highway: 'steps', access: 'yes' })).toBeNull();
  expect(speeds('car', { highway: 'primary', construction: 'yes' })).toBeNull();
  expect(speeds('car', { highway: 'primary', construction: 'minor' })).not.toBeNull();
});

test('car one-ways by vehicle key, alternating one-ways open, size limits of a car', () => {
  expect(speeds('car', { highway: 'primary', 'oneway:motorcar': 'yes' })).toMatchObject({ backwardKph: 0 });
  expect(speeds('car', { highway: 'primary', 'oneway:vehicle': 'yes', oneway: 'no' })).toMatchObject({ backwardKph: 0 });
  expect(speeds('car', { highway: 'primary', oneway: 'alternating' })).toMatchObject({ forwardKph: 65, backwardKph: 65 });
  expect(speeds('car', { highway: 'primary', maxheight: '1' })).toBeNull();
  expect(speeds('car', { highway: 'primary', width: '1.9' })).toBeNull();
  expect(speeds('car', { highway: 'primary', width: "6'" })).toBeNull();
  expect(speeds('car', { highway: 'primary', maxlength: '1' })).toBeNull();
  expect(speeds('car', { highway: 'primary', maxweight: '0.1 lbs' })).toBeNull();
  expect(speeds('car', { highway: 'primary', maxweight: '3.5' })).not.toBeNull();
});

test('car speeds: maxspeed per direction, advisory first, surface and smoothness caps', () => {
  expect(speeds('car', { highway: 'primary', 'maxspeed:forward': '60' })).toMatchObject({ forwardKph: 48, backwardKph: 65 });
  expect(speeds('car', { highway: 'primary', maxspeed: '90', 'maxspeed:advisory': '45' })!.forwardKph).toBe(36);
  expect(speeds('car', { highway: 'primary', surface: 'mud' })!.forwardKph).toBe(10);
  expect(speeds('car', { highway: 'primary', smoothness: 'impassable' })).toBeNull();
});

test('foot as OSRM: no trunk, cycleway, bridleway or motorroad; platforms and piers walkable; slow surfaces; escalators one way', () => {
  for (const highway of ['trunk', 'trunk_link', 'cycleway', 'bridleway', 'road']) expect(speeds('foot', { highway })).toBeNull();
  expect(speeds('foot', { highway: 'primary', motorroad: 'yes' })).toBeNull();
  expect(speeds('foot', { railway: 'platform' })).toMatchObject({ forwardKph: 5 });
  expect(speeds('foot', { highway: 'pier' })).toMatchObject({ forwardKph: 5 });
  expect(speeds('foot', { highway: 'residential', access: 'delivery' })).toBeNull();
  expect(speeds('foot', { highway: 'footway', surface: 'sand' })!.forwardKph).toBe(2.5);
  expect(speeds('foot', { highway: 'steps', conveying: 'forward' })).toMatchObject({ forwardKph: 5, backwardKph: 0 });
  expect(speeds('foot', { highway: 'steps', conveying: 'backward', oneway: 'no' })).toMatchObject({ forwardKph: 5, backwardKph: 5 });
  expect(speeds('foot', { highway: 'footway', area: 'yes' })).not.toBeNull();
});

test('nodes: access tags close them without a barrier; kerbs, rising bollards, audible fences let cars through', () => {
  const blocks = (mode: keyof typeof PROFILES, tags: Record<string, string>) => barrierBlocks(PROFILES[mode], mode, tags);
  expect(blocks('car', { access: 'no' })).toBe(true);
  expect(blocks('car', { access: 'private' })).toBe(false);
  expect(blocks('foot', { access: 'delivery' })).toBe(true);
  expect(blocks('car', { barrier: 'kerb', kerb: 'lowered' })).toBe(false);
  expect(blocks('car', { barrier: 'kerb' })).toBe(true);
  expect(blocks('car', { barrier: 'bollard', bollard: 'rising' })).toBe(false);
  expect(blocks('car', { barrier: 'fence', sensory: 'audible' })).toBe(false);
  expect(blocks('car', { barrier: 'height_restrictor', maxheight: '1' })).toBe(true);
  expect(blocks('bike', { barrier: 'something_unknown' })).toBe(false);
  expect(blocks('bike', { barrier: 'wall' })).toBe(true);
  expect(barrierSeconds(PROFILES.car, 'car', { barrier: 'gate' })).toBe(60);
  expect(barrierSeconds(PROFILES.car, 'car', { barrier: 'gate', access: 'yes' })).toBe(0);
  expect(barrierSeconds(PROFILES.foot, 'foot', { barrier: 'gate' })).toBe(0);
});

test('bicycle as OSRM: pushed on footways and against one-ways, ridden where allowed, dismount, no trunk roads', () => {
  expect(speeds('bike', { highway: 'footway' })).toMatchObject({ forwardKph: 4, backwardKph: 4, pushing: { forward: true, backward: true } });
  expect(speeds('bike', { highway: 'pedestrian', bicycle: 'yes' })).toMatchObject({ forwardKph: 15, backwardKph: 15 });
  expect(speeds('bike', { highway: 'pedestrian', bicycle: 'yes' })!.pushing).toBeUndefined();
  expect(speeds('bike', { highway: 'steps' })).toMatchObject({ forwardKph: 2 });
  expect(speeds('bike', { highway: 'footway', foot: 'no' })).toBeNull();
  expect(speeds('bike', { highway: 'residential', oneway: 'yes', foot: 'no' })).toMatchObject({ backwardKph: 0 });
  expect(speeds('bike', { highway: 'primary', junction: 'roundabout' })).toMatchObject({ backwardKph: 0 });
  expect(speeds('bike', { highway: 'residential', bicycle: 'dismount' })).toMatchObject({ forwardKph: 4, backwardKph: 4 });
  expect(speeds('bike', { highway: 'trunk' })).toBeNull();
  expect(speeds('bike', { highway: 'track' })!.forwardKph).toBe(12);
  expect(speeds('bike', { highway: 'residential', surface: 'gravel' })!.forwardKph).toBe(6);
  expect(speeds('bike', { highway: 'residential', access: 'delivery' })).toBeNull();
});

describe('tags read per direction from a frozen object (the import pipeline\'s)', () => {
  // forwardBackward answers a frozen object from one pass over its own keys (most ways have none of
  // the keys asked): every answer must be the one read key by key from a plain copy.
  const keyLists = [['maxheight:physical', 'maxheight'], ['motorcar', 'motor_vehicle', 'vehicle', 'access'], ['maxspeed:advisory', 'maxspeed']];
  const cases: Array<Record<string, string>> = [
    { highway: 'residential' },
    { highway: 'primary', maxspeed: '30 mph' },
    { highway: 'primary', 'maxspeed:forward': '40 mph', maxspeed: '30 mph' },
    { highway: 'service', 'access:backward': 'no', vehicle: 'private' },
    { highway: 'service', 'motor_vehicle:forward': 'destination', access: 'yes', 'maxheight:backward': '3' },
    { highway: 'track', maxheight: '2.5', 'maxheight:physical': '2.4' },
  ];
  test.each(cases.map((c) => [JSON.stringify(c), c]))('%s', (_, tags) => {
    const frozen = Object.freeze({ ...tags });
    for (const keys of keyLists) {
      // Twice each, to be answered from the remembered keys too, between reads of another object.
      expect([keys, forwardBackward(frozen, keys)]).toEqual([keys, forwardBackward({ ...tags }, keys)]);
      forwardBackward(Object.freeze({ highway: 'path', access: 'no' }), keys);
      expect([keys, forwardBackward(frozen, keys)]).toEqual([keys, forwardBackward({ ...tags }, keys)]);
    }
    // A list of keys never asked before is honoured on an object already remembered.
    const fresh = [`fresh${Object.keys(tags).length}`, 'maxspeed'];
    expect(forwardBackward(frozen, fresh)).toEqual(forwardBackward({ ...tags }, fresh));
  });
});
