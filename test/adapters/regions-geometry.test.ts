import { BandedPolygon } from '../../core/geo/banded-polygon';
import { PolygonLayer } from '../../adapters/regions/embedded/polygon-layer';
import { PostalCentroids } from '../../adapters/regions/embedded/postal-centroids';
import { caProvinceByName, caProvinceOfPostalCode } from '../../core/facts/ca-provinces';
import { allCountries, countryByAlpha2, countryByNumeric, flagEmoji } from '../../core/facts/iso-countries';
import { usStateByCode, usStateByFips, usStateByName } from '../../core/facts/us-states';

const square = (x0: number, y0: number, size: number): number[][] => [
  [x0, y0], [x0 + size, y0], [x0 + size, y0 + size], [x0, y0 + size], [x0, y0],
];

describe('BandedPolygon', () => {
  const withHole = new BandedPolygon([square(0, 0, 10), square(4, 4, 2)]);

  test.each([
    ['inside the outer ring', 1, 1, true],
    ['inside the hole', 5, 5, false],
    ['between hole and outer ring', 3.9, 5, true],
    ['outside, left', -0.1, 5, false],
    ['outside, above', 5, 10.1, false],
    ['far away', 100, 100, false],
  ])('%s', (_name, x, y, expected) => {
    expect(withHole.contains(x, y)).toBe(expected);
  });

  test('open rings are closed', () => {
    const open = new BandedPolygon([[[0, 0], [1, 0], [1, 1], [0, 1]]]);
    expect(open.contains(0.5, 0.5)).toBe(true);
    expect(open.contains(1.5, 0.5)).toBe(false);
  });

  test('a many-vertex ring (a 10,000-gon circle) agrees with the distance to its centre', () => {
    const ring: number[][] = [];
    for (let i = 0; i <= 10_000; i++) {
      const a = (2 * Math.PI * i) / 10_000;
      ring.push([Math.cos(a), Math.sin(a)]);
    }
    const circle = new BandedPolygon([ring]);
    let seed = 9;
    const random = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    for (let i = 0; i < 2000; i++) {
      const x = random() * 2.4 - 1.2, y = random() * 2.4 - 1.2;
      const r = Math.hypot(x, y);
      if (Math.abs(r - 1) < 1e-3) continue;
      expect(circle.contains(x, y)).toBe(r < 1);
    }
  });

  test('distance to boundary is in meters and stops at the limit', () => {
    // A 1°-wide square at the equator; a point 0.01° (≈1113 m) east of its east edge.
    const p = new BandedPolygon([square(0, 0, 1)]);
    expect(p.distanceToBoundary(1.01, 0.5, 2000)).toBeCloseTo(1113.2, 0);
    expect(p.distanceToBoundary(1.01, 0.5, 1000)).toBe(Infinity);
  });
});

describe('PolygonLayer', () => {
  const layer = new PolygonLayer([
    { value: 'A', polygons: [[square(0, 0, 10)], [square(20, 0, 5)]] },
    { value: 'B', polygons: [[square(10, 0, 10)]] },
    { value: 'inner', polygons: [[square(2, 2, 1)]] },
    { value: 'across the antimeridian, west part', polygons: [[square(179, 50, 1)]] },
  ]);

  test.each([
    ['first polygon of a MultiPolygon', 5, 5, 'A'],
    ['second polygon of a MultiPolygon', 22, 2, 'A'],
    ['neighbour', 15, 5, 'B'],
    ['overlapping regions: the smaller one wins', 2.5, 2.5, 'inner'],
    ['gap between them', 30, 30, undefined],
    ['next to the antimeridian', 179.5, 50.5, 'across the antimeridian, west part'],
  ])('%s', (_name, x, y, expected) => {
    expect(layer.containing(x, y)).toBe(expected);
  });

  test('nearest boundary within a distance', () => {
    // 0.005° east of B's east edge at the equator ≈ 557 m.
    expect(layer.nearestWithin(20.005, 7, 600)).toBe('B');
    expect(layer.nearestWithin(20.005, 7, 500)).toBeUndefined();
  });
});

describe('PostalCentroids', () => {
  const points = new PostalCentroids([
    { code: 'A1', scope: 'X', lng: 0, lat: 0 },
    { code: 'A2', scope: 'X', lng: 0.3, lat: 0 },
    { code: 'B1', scope: 'Y', lng: 0.01, lat: 0 },
    { code: 'bad', scope: 'X', lng: Number.NaN, lat: 0 },
  ]);

  test.each([
    ['nearest of the scope, skipping a closer one of another scope', 0.011, 0, 'X', 100_000, 'A1'],
    ['the other scope', 0.2, 0, 'Y', 100_000, 'B1'],
    ['several cells away', 0.28, 0, 'X', 100_000, 'A2'],
    ['beyond the maximum distance', 0.15, 0, 'Y', 10_000, undefined],
    ['unknown scope', 0, 0, 'Z', 100_000, undefined],
  ])('%s', (_name, lng, lat, scope, max, expected) => {
    expect(points.nearest(lng, lat, scope, max)?.code).toBe(expected);
  });

  test('agrees with a brute-force search on 2,000 seeded points', () => {
    let seed = 5;
    const random = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const cloud = Array.from({ length: 2000 }, (_, i) => ({ code: String(i), scope: i % 3 === 0 ? 'P' : 'Q', lng: -80 + random() * 10, lat: 35 + random() * 10 }));
    const index = new PostalCentroids(cloud);
    for (let q = 0; q < 300; q++) {
      const lng = -81 + random() * 12, lat = 34 + random() * 12;
      const kx = 111_320 * Math.cos((lat * Math.PI) / 180);
      let best: string | undefined;
      let bestMeters = 80_000;
      for (const p of cloud) {
        if (p.scope !== 'P') continue;
        const m = Math.hypot((p.lng - lng) * kx, (p.lat - lat) * 111_320);
        if (m < bestMeters) {
          bestMeters = m;
          best = p.code;
        }
      }
      expect(index.nearest(lng, lat, 'P', 80_000)?.code).toBe(best);
    }
  });

  test('invalid points are dropped', () => {
    expect(points.size).toBe(3);
  });
});

describe('fact tables', () => {
  test('ISO table: numeric and alpha-2 lookups agree, flags are regional indicators', () => {
    expect(countryByNumeric('840')).toMatchObject({ alpha2: 'US', name: 'United States' });
    expect(countryByNumeric('036')?.alpha2).toBe('AU');
    expect(countryByAlpha2('gb')?.numeric).toBe('826');
    expect(countryByAlpha2('XK')?.name).toBe('Kosovo');
    expect(new Set(allCountries().map((c) => c.alpha2)).size).toBe(allCountries().length);
    expect(flagEmoji('FR')).toBe('\u{1F1EB}\u{1F1F7}');
    expect(flagEmoji('F1')).toBeUndefined();
  });

  test('every numeric id in world-atlas countries-10m is in the ISO table', () => {
    const topology = require('world-atlas/countries-10m.json') as { objects: { countries: { geometries: Array<{ id?: string }> } } };
    const ids = topology.objects.countries.geometries.map((g) => g.id).filter((id): id is string => id !== undefined);
    expect(ids.length).toBeGreaterThan(230);
    expect(ids.filter((id) => countryByNumeric(id) === undefined)).toEqual([]);
  });

  test('US states by FIPS, code and name', () => {
    expect(usStateByFips('36')).toMatchObject({ code: 'NY', name: 'New York', territory: false });
    expect(usStateByFips('72')).toMatchObject({ code: 'PR', territory: true });
    expect(usStateByCode('dc')?.name).toBe('District of Columbia');
    expect(usStateByName('  washington ')?.code).toBe('WA');
  });

  test.each([
    ['M5H 2N2', 'ON'], ['H2X', 'QC'], ['V6B', 'BC'], ['T5J', 'AB'], ['A1C', 'NL'], ['B3H', 'NS'], ['C1A', 'PE'],
    ['E1C', 'NB'], ['R3C', 'MB'], ['S4P', 'SK'], ['X1A', 'NT'], ['X0A', 'NU'], ['Y1A', 'YT'],
  ])('postal code %s is in %s', (postal, province) => {
    expect(caProvinceOfPostalCode(postal)?.code).toBe(province);
  });

  test('province names, including the variants other sources use', () => {
    expect(caProvinceByName('Québec')?.code).toBe('QC');
    expect(caProvinceByName('Nunavut Territory')?.code).toBe('NU');
    expect(caProvinceOfPostalCode('12345')).toBeUndefined();
  });

  test('the zipcodes package still has the shape the postal loader reads', () => {
    const { codes } = require('zipcodes') as { codes: Record<string, unknown> };
    expect(codes['10024']).toMatchObject({ zip: '10024', state: 'NY', country: 'US', latitude: expect.any(Number), longitude: expect.any(Number) });
    expect(codes.M5H).toMatchObject({ zip: 'M5H', country: 'Canada', latitude: expect.any(Number), longitude: expect.any(Number) });
  });
});
