// The pure parts of the regions step: which region events a change of regions makes (names and order
// as Radar's), and how their confidence is graded from samples of the accuracy disk.
import type { Region, RegionSet } from '../../ports/regions';
import { diskSamples, regionConfidences } from '../../server/features/regions/region-confidence';
import { regionTransitions, userRegionsOf, type UserRegions } from '../../server/features/regions/region-transitions';
import type { LngLat } from '../../core/types';

const region = (type: string, code: string, name = code): Region => ({ _id: `${type}-${code}`.padEnd(24, '0'), type, name, code });
const US = region('country', 'US');
const CA = region('country', 'CA');
const NJ = region('state', 'NJ');
const NY = region('state', 'NY');
const DMA_NY = region('dma', '501');
const ZIP_A = region('postalCode', '07030');
const ZIP_B = region('postalCode', '10011');

describe('regionTransitions', () => {
  const cases: Array<{ name: string; before: UserRegions; after: UserRegions; expected: string[] }> = [
    { name: 'first update: entries for every region, in country/state/dma/postal order', before: {}, after: { postalCode: ZIP_A, state: NJ, country: US, dma: DMA_NY },
      expected: ['user.entered_region_country:US', 'user.entered_region_state:NJ', 'user.entered_region_dma:501', 'user.entered_region_postal_code:07030'] },
    { name: 'no change: nothing', before: { country: US, state: NJ }, after: { country: US, state: NJ }, expected: [] },
    { name: 'a state line: exit before entry', before: { country: US, state: NJ, postalCode: ZIP_A }, after: { country: US, state: NY, postalCode: ZIP_B },
      expected: ['user.exited_region_state:NJ', 'user.entered_region_state:NY', 'user.exited_region_postal_code:07030', 'user.entered_region_postal_code:10011'] },
    { name: 'out to sea: exits only', before: { country: CA }, after: {}, expected: ['user.exited_region_country:CA'] },
    { name: 'a renamed region (same type and code) is the same region', before: { dma: DMA_NY }, after: { dma: { ...DMA_NY, name: 'New York, NY' } }, expected: [] },
  ];
  test.each(cases)('$name', ({ before, after, expected }) => {
    expect(regionTransitions(before, after).map((t) => `${t.type}:${t.region.code}`)).toEqual(expected);
  });

  test('userRegionsOf keeps the four Radar fields that hold region objects, nothing else', () => {
    const stored = { country: US, state: NJ, county: region('county', '34017'), dma: 'not a region', postalCode: null, deviceId: 'd' };
    expect(userRegionsOf(stored)).toEqual({ country: US, state: NJ });
    expect(userRegionsOf(undefined)).toEqual({});
  });
});

describe('regionConfidences', () => {
  const at: LngLat = [-74, 40.75];
  // A border running north–south at longitude -74: New York to the east, New Jersey to the west.
  const split = (p: LngLat): RegionSet => ({ country: US, state: p[0] >= -74 ? NY : NJ });
  const entered = regionTransitions({ country: US, state: NJ }, { country: US, state: NY });

  test.each([
    ['accuracy 0: the point is all there is', 0, [3, 3]],
    ['standing on the border with 50 m accuracy: half the disk either side', 50, [2, 2]],
  ])('%s', (_name, accuracy, expected) => {
    expect(regionConfidences(entered, at, accuracy, split)).toEqual(expected);
  });

  test('well inside: 3; just past the line with poor accuracy: below 3', () => {
    const east: LngLat = [-73.99, 40.75]; // ~840 m east of the line
    expect(regionConfidences(entered, east, 100, split)).toEqual([3, 3]);
    // 20 m east of the line with 1 km accuracy: the samples mostly fall in New Jersey.
    const barely: LngLat = [-74 + 20 / 84_300, 40.75];
    const [exitNj, enterNy] = regionConfidences(entered, barely, 1000, split);
    expect(enterNy).toBeLessThan(3);
    expect(exitNj).toBeLessThan(3);
  });

  test('no transitions: no lookups', () => {
    let calls = 0;
    expect(regionConfidences([], at, 100, (p) => (calls++, split(p)))).toEqual([]);
    expect(calls).toBe(0);
  });

  test('disk samples lie at r and r/√2 from the centre', () => {
    const samples = diskSamples(at, 1000);
    expect(samples).toHaveLength(16);
    const metres = (p: LngLat) => Math.hypot((p[0] - at[0]) * 111_320 * Math.cos((at[1] * Math.PI) / 180), (p[1] - at[1]) * 111_320);
    for (const p of samples.slice(0, 8)) expect(metres(p)).toBeCloseTo(1000, 3);
    for (const p of samples.slice(8)) expect(metres(p)).toBeCloseTo(1000 / Math.SQRT2, 3);
  });
});
