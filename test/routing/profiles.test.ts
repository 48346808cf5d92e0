// The routing profiles' decisions on single ways (tags as OSM writes them), maxspeed parsing, and
// turn-restriction relations: what each mode may use, in which direction, how fast.
import { parseDurationSeconds, parseMaxspeed } from '../../data/osm/routing/profiles/maxspeed';
import { waySpeeds } from '../../data/osm/routing/profiles/profile';
import { PROFILES } from '../../data/osm/routing/profiles/profiles';
import { readRestriction } from '../../data/osm/routing/restrictions';
import { barrierBlocks } from '../../data/osm/routing/profiles/barriers';
import type { OsmRelation } from '../../data/osm/stage';

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
  expect(speeds('bike', { highway: 'residential', oneway: 'yes' })).toMatchObject({ backwardKph: 0 });
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
  expect(readRestriction(relation({ type: 'restriction', restriction: 'no_left_turn' }, m))).toEqual({ fromWay: 10, viaNode: 5, toWay: 11, only: false, modes: ['car', 'truck', 'bike'] });
  expect(readRestriction(relation({ type: 'restriction', restriction: 'only_straight_on', except: 'bicycle' }, m))).toMatchObject({ only: true, modes: ['car', 'truck'] });
  expect(readRestriction(relation({ type: 'restriction', 'restriction:hgv': 'no_right_turn' }, m))).toMatchObject({ modes: ['truck'] });
  expect(readRestriction(relation({ type: 'restriction', restriction: 'no_left_turn' }, [m[0], { type: 'way', ref: 7, role: 'via' }, m[2]]))).toBe('unsupported');
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
