// The routing stage's memo of every mode's speeds per tag set (profiles/way-speeds-memo.ts, over
// importers/osm/tag-set-memo.ts): whatever ways come and in whatever order, each gets exactly what
// evaluating its profiles gives, while ways that differ only in tags no profile reads share one
// evaluation.
import fs from 'node:fs';
import path from 'node:path';
import { readOsm } from '../../importers/osm/osm-reader';
import type { OsmTags } from '../../importers/osm/stage';
import { TagSetMemo } from '../../importers/osm/tag-set-memo';
import { modeSpeeds, WaySpeedsMemo } from '../../importers/osm/stages/routing/profiles/way-speeds-memo';

const OSM = path.resolve(__dirname, '../../../shared/fixtures/osm');
const tags = (t: Record<string, string>): OsmTags => Object.freeze({ ...t });

async function waysOf(file: string): Promise<Array<{ tags: OsmTags; length: number }>> {
  const ways: Array<{ tags: OsmTags; length: number }> = [];
  await readOsm(path.join(OSM, file), { way: (w) => void ways.push({ tags: w.tags, length: 10 + (w.id % 997) }) });
  return ways;
}

test('every way of the shared extracts gets what its profiles give, from one memo across them all', async () => {
  const memo = new WaySpeedsMemo();
  const files = fs.readdirSync(OSM).filter((f) => f.endsWith('.osm.pbf')).sort();
  expect(files.length).toBeGreaterThanOrEqual(8);
  let ways = 0;
  for (const file of files) {
    for (const way of await waysOf(file)) {
      const got = memo.speeds(way.tags, way.length);
      const direct = modeSpeeds(way.tags, way.length);
      if (JSON.stringify(got) !== JSON.stringify(direct)) {
        throw new Error(`${file}: the memo answered ${JSON.stringify(got)} for ${JSON.stringify(way.tags)}, its profiles ${JSON.stringify(direct)}`);
      }
      ways++;
    }
  }
  const counts = memo.counts();
  expect(ways).toBeGreaterThan(20_000);
  // Real extracts repeat the tag sets the profiles read: most ways are answered from memory.
  expect(counts.hits).toBeGreaterThan(ways / 2);
  expect(counts.unkept).toBe(0);
}, 120_000);

test('tag sets that differ in one key a profile reads only on some paths get their own verdicts', () => {
  const memo = new WaySpeedsMemo();
  const cases: Array<Record<string, string>> = [
    { highway: 'residential' },
    { highway: 'residential', name: 'Elm Street' },
    { highway: 'residential', oneway: 'yes' },
    { highway: 'residential', oneway: '-1' },
    { highway: 'residential', 'oneway:bicycle': 'no', oneway: 'yes' },
    { highway: 'residential', oneway: 'yes', cycleway: 'opposite' },
    { highway: 'residential', maxspeed: '15 mph' },
    { highway: 'residential', 'maxspeed:forward': '15 mph' },
    { highway: 'residential', width: '2.5' },
    { highway: 'residential', lanes: '1' },
    { highway: 'residential', hov: 'designated' },
    { highway: 'residential', 'hov:lanes:forward': 'designated', 'hov:lanes:backward': 'designated' },
    { highway: 'residential', 'hov:lanes:forward': 'designated', 'hov:lanes:backward': 'designated|yes' },
    { highway: 'residential', access: 'private' },
    { highway: 'residential', 'access:backward': 'no' },
    { highway: 'residential', maxheight: '3' },
    { highway: 'residential', maxweight: '7.5' },
    { highway: 'residential', surface: 'gravel' },
    { highway: 'service', service: 'emergency_access' },
    { highway: 'service', service: 'driveway' },
    { highway: 'service', access: 'private' },
    { highway: 'footway', sidewalk: 'separate' },
    { highway: 'footway', conveying: 'forward' },
    { highway: 'footway', bicycle: 'yes' },
    { highway: 'steps', foot: 'no' },
    { highway: 'primary', sidewalk: 'separate', foot: 'yes' },
    { highway: 'primary', 'sidewalk:left': 'separate' },
    { railway: 'rail', bicycle: 'yes' },
    { route: 'ferry' },
    { route: 'ferry', duration: '00:30' },
    { bridge: 'movable', highway: 'residential', duration: '5' },
  ];
  // Every case after every other (both orders), so a verdict kept for one is offered to the next.
  for (const a of cases) {
    for (const b of cases) {
      for (const t of [a, b]) {
        const got = memo.speeds(tags(t), 240);
        expect({ tags: t, speeds: got }).toEqual({ tags: t, speeds: modeSpeeds(tags(t), 240) });
      }
    }
  }
  // A name is not read by the profiles (a sidewalk's street name is the stage's, not the profiles'): one verdict.
  const before = memo.counts().misses;
  memo.speeds(tags({ highway: 'residential', name: 'Oak Street', 'tiger:county': 'Baltimore, MD' }), 80);
  expect(memo.counts().misses).toBe(before);
  // A timed crossing's speed is its length over its duration: never taken from another way's.
  expect(memo.speeds(tags({ route: 'ferry', duration: '00:30' }), 9000)[0]!.forwardKph).toBeCloseTo(18);
  expect(memo.speeds(tags({ route: 'ferry', duration: '00:30' }), 4500)[0]!.forwardKph).toBeCloseTo(9);
});

test('the memo learns the keys an evaluation reads, absent ones included, and keeps no verdict that read the key list', () => {
  let evaluations = 0;
  const memo = new TagSetMemo((t) => {
    evaluations++;
    return { v: t.a === '1' ? `b=${t.b}` : 'no b' };
  });
  expect(memo.get(tags({ a: '2', b: 'x' }))).toEqual({ v: 'no b' });
  expect(memo.get(tags({ a: '2', b: 'y', c: 'z' }))).toEqual({ v: 'no b' });
  expect(evaluations).toBe(1);
  expect(memo.get(tags({ b: 'x' }))).toEqual({ v: 'no b' });
  expect(memo.get(tags({ a: '1', b: 'x' }))).toEqual({ v: 'b=x' });
  expect(memo.get(tags({ a: '1', b: 'y' }))).toEqual({ v: 'b=y' });
  expect(memo.get(tags({ a: '1' }))).toEqual({ v: 'b=undefined' });
  expect(memo.get(tags({ a: '1', b: 'x', c: 'q' }))).toEqual({ v: 'b=x' });
  expect(memo.counts()).toMatchObject({ hits: 2, misses: 5, unkept: 0, keys: 2 });
  // Values that would run together in a naive key stay apart.
  const joined = new TagSetMemo((t) => ({ v: `${t.a}|${t.b}` }));
  expect(joined.get(tags({ a: 'x,1:', b: 'y' })).v).toBe('x,1:|y');
  expect(joined.get(tags({ a: 'x', b: ',1:y' })).v).toBe('x|,1:y');

  const counting = new TagSetMemo((t) => ({ n: Object.keys(t).length }));
  expect(counting.get(tags({ a: '1' })).n).toBe(1);
  expect(counting.get(tags({ a: '1', b: '2' })).n).toBe(2);
  expect(counting.counts()).toMatchObject({ hits: 0, unkept: 2, entries: 0 });
});
