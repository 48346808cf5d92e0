// Query understanding and normal forms (core/geocoding): the cases the issue names.
import { glueParticles, matchName } from '../../core/geocoding/match-name';
import { ftsTypos } from '../../adapters/geocoder/embedded/extract-index';
import { houseNumberValue, normalizeHouseNumber, normalizeName } from '../../core/geocoding/normalize';
import { parseQuery, type ParseOptions } from '../../core/geocoding/parse-query';
import { numberFraction, onInterpolation, pointAlong } from '../../core/geocoding/interpolate';
import { PointGrid } from '../../core/geocoding/point-grid';

const STATES: Record<string, string> = { md: 'MD', maryland: 'MD', ny: 'NY', on: 'ON', ontario: 'ON', ca: 'CA' };
const COUNTRIES: Record<string, string> = { usa: 'US', 'united states': 'US', liechtenstein: 'LI', canada: 'CA' };
const opts: ParseOptions = { stateCode: (t) => STATES[t], countryCode: (t) => COUNTRIES[t] };

describe('normalizeName', () => {
  test.each([
    ['N Wolfe St', 'north wolfe street'],
    ['NORTH WOLFE STREET', 'north wolfe street'],
    ['n. wolfe st.', 'north wolfe street'],
    ['Städtle', 'stadtle'],
    ['Hauptstraße', 'hauptstrasse'],
    ['Hauptstr.', 'hauptstrasse'],
    ['Kalbacher Str 10', 'kalbacher strasse 10'],
    ['109th Ave', '109th avenue'],
    ['Saint-Jean Blvd', 'saint jean boulevard'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeName(input)).toBe(expected);
  });

  test('house numbers keep Queens hyphens and order by block then lot', () => {
    expect(normalizeHouseNumber('203-06')).toBe('203-06');
    expect(normalizeHouseNumber('12 A')).toBe('12a');
    expect(houseNumberValue('203-06')).toBeLessThan(houseNumberValue('203-10'));
    expect(houseNumberValue('203-99')).toBeLessThan(houseNumberValue('204-01'));
    expect(houseNumberValue('12a')).toBe(12);
    expect(houseNumberValue('abc')).toBeNaN();
  });
});

describe('parseQuery', () => {
  test('US order with unit and ZIP+4', () => {
    const p = parseQuery('615 N Wolfe St Apt 4B, Baltimore, MD 21205-1234', opts);
    expect(p).toMatchObject({ number: '615', unit: 'APT 4B', postalCode: '21205', plus4: '1234', stateCode: 'MD' });
    expect(p.streetTokens).toEqual(['north', 'wolfe', 'street']);
    expect(p.localityTokens).toEqual(['baltimore']);
  });

  test('US order without commas keeps every name word for the matcher', () => {
    const p = parseQuery('615 n wolfe st baltimore md 21205 usa', opts);
    expect(p).toMatchObject({ number: '615', postalCode: '21205', stateCode: 'MD', countryCode: 'US' });
    expect(p.tokens).toEqual(['north', 'wolfe', 'street', 'baltimore']);
  });

  test('hash units and Queens numbers', () => {
    const p = parseQuery('203-06 109th Avenue #2, Queens, NY 11412', opts);
    expect(p).toMatchObject({ number: '203-06', unit: '#2', postalCode: '11412', stateCode: 'NY' });
    expect(p.streetTokens).toEqual(['109th', 'avenue']);
  });

  test('European order: number after the street, postal code before the town', () => {
    const p = parseQuery('Städtle 43, 9490 Vaduz', opts);
    expect(p).toMatchObject({ number: '43', postalCode: '9490' });
    expect(p.streetTokens).toEqual(['stadtle']);
    expect(p.localityTokens).toEqual(['vaduz']);
  });

  test('Canadian postal codes and provinces', () => {
    const p = parseQuery('290 Bremner Blvd, Toronto, ON M5V 3L9', opts);
    expect(p).toMatchObject({ number: '290', postalCode: 'M5V 3L9', stateCode: 'ON' });
  });

  test('a lone word or number is left for the coarse search', () => {
    for (const [query, tokens] of [['Paris', ['paris']], ['10001', ['10001']], ['Ontario', ['ontario']]] as const) {
      const p = parseQuery(query, opts);
      expect([p.number, p.postalCode, p.stateCode, p.tokens]).toEqual([undefined, undefined, undefined, tokens]);
    }
  });
});

describe('matchName', () => {
  test('every word but directions and types must be there', () => {
    expect(matchName(['north', 'wolfe', 'street'], ['north', 'wolfe', 'street', 'baltimore'], false)).toEqual({ score: 3, leftover: ['baltimore'] });
    expect(matchName(['north', 'wolfe', 'street'], ['wolfe'], false)?.score).toBe(0.5);
    expect(matchName(['north', 'wolfe', 'street'], ['wolfe', 'street'], false)?.score).toBe(1.75);
    expect(matchName(['north', 'wolfe', 'street'], ['gay', 'street'], false)).toBeUndefined();
  });

  test('the last word typed may be a prefix', () => {
    expect(matchName(['north', 'wolfe', 'street'], ['north', 'wol'], true)?.leftover).toEqual([]);
    expect(matchName(['north', 'wolfe', 'street'], ['north', 'wol'], false)).toBeUndefined();
  });

  test('a typo inside a word an apostrophe split: the particle is glued back on both sides', () => {
    // "O'Dnell" folds to "o dnell"; "O'Donnell" to "o donnell". Word by word, "dnell" is two letters off a
    // word of seven (one allowed); glued, "odnell" is two off "odonnell" (eight letters: two allowed).
    expect(glueParticles(['o', 'donnell', 'street'])).toEqual(['odonnell', 'street']);
    expect(glueParticles(['1', 'a', 'street'])).toEqual(['1', 'astreet']);
    expect(glueParticles(['avenue', 'de', 'l', 'annonciade'])).toEqual(['avenue', 'de', 'lannonciade']);
    expect(matchName(['o', 'donnell', 'street'], ['o', 'dnell', 'street'], false, true)?.leftover).toEqual([]);
    expect(matchName(['o', 'donnell', 'street'], ['o', 'dnell', 'street'], false, false)).toBeUndefined();
    // Spelt right, the words still match one by one, at full worth.
    expect(matchName(['o', 'donnell', 'street'], ['o', 'donnell', 'street'], false, true)?.score).toBe(3);
    // Gluing never forgives more than the glued word's allowance.
    expect(matchName(['o', 'donnell', 'street'], ['o', 'dll', 'street'], false, true)).toBeUndefined();
  });

  test('the typo pass looks a particle up by itself, longer words by their first three letters', () => {
    expect(ftsTypos(['o', 'dnell', 'street'])).toBe('"o" OR "dne"* OR "str"*');
    expect(ftsTypos(['2921', 'o'])).toBeUndefined();
  });
});

describe('interpolation', () => {
  test('odd and even lines hold only their numbers', () => {
    expect(onInterpolation(2903, 2901, 2919, 2)).toBe(true);
    expect(onInterpolation(2904, 2901, 2919, 2)).toBe(false);
    expect(onInterpolation(2921, 2901, 2919, 2)).toBe(false);
    expect(numberFraction(2910, 2900, 2920)).toBe(0.5);
  });

  test('pointAlong walks the line by length', () => {
    const line = [0, 0, 0.001, 0, 0.001, 0.003];
    expect(pointAlong(line, 0)).toEqual([0, 0]);
    const [x, y] = pointAlong(line, 0.5);
    expect(x).toBeCloseTo(0.001, 9);
    expect(y).toBeCloseTo(0.001, 9);
    expect(pointAlong(line, 1)).toEqual([0.001, 0.003]);
  });
});

describe('PointGrid', () => {
  test('finds the same nearest points as a scan', () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const xs = Float64Array.from({ length: 2000 }, () => -74 + rand() * 0.1);
    const ys = Float64Array.from({ length: 2000 }, () => 40.7 + rand() * 0.1);
    const grid = new PointGrid(xs, ys, 0.002);
    for (let q = 0; q < 50; q++) {
      const lng = -74 + rand() * 0.1;
      const lat = 40.7 + rand() * 0.1;
      const kx = 111_320 * Math.cos((lat * Math.PI) / 180);
      const scan = [...xs.keys()].map((i) => [i, Math.hypot((xs[i] - lng) * kx, (ys[i] - lat) * 111_320)]).sort((a, b) => a[1] - b[1]);
      const found = grid.nearest(lng, lat, 5000, 3);
      expect(found.map((f) => f[0])).toEqual(scan.slice(0, 3).map((s) => s[0]));
    }
    expect(grid.nearest(0, 0, 1000, 1)).toEqual([]);
  });
});
