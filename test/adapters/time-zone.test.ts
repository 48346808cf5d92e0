import { createGeoTzTimeZones } from '../../adapters/time-zones/geo-tz/geo-tz-time-zones';
import { LeastRecentlyUsed } from '../../core/cache/least-recently-used';

describe('geo-tz time zones', () => {
  const zones = createGeoTzTimeZones();

  test.each([
    ['Times Square', 40.758, -73.9855, 'America/New_York'],
    ['Detroit (its own canonical zone)', 42.3314, -83.0458, 'America/Detroit'],
    ['Phoenix (no daylight saving)', 33.4484, -112.074, 'America/Phoenix'],
    ['Indianapolis', 39.7684, -86.1581, 'America/Indiana/Indianapolis'],
    ['Toronto', 43.6532, -79.3832, 'America/Toronto'],
    ['London', 51.5074, -0.1278, 'Europe/London'],
    ['Strasbourg', 48.5734, 7.7521, 'Europe/Paris'],
    ['Kehl, across the Rhine', 48.5725, 7.815, 'Europe/Berlin'],
    ['Darwin', -12.4634, 130.8456, 'Australia/Darwin'],
    ["Tromsø (geo-tz's default dataset would say Europe/Berlin)", 69.6492, 18.9553, 'Europe/Oslo'],
    ['Reykjavik', 64.1466, -21.9426, 'Atlantic/Reykjavik'],
    ['Mid-Atlantic: nautical zone', 35, -40, 'Etc/GMT+3'],
  ])('%s', (_name, lat, lng, zone) => {
    expect(zones.zoneAt([lng, lat])).toBe(zone);
  });

  test.each([
    ['latitude beyond 90', [0, 91]],
    ['longitude beyond 180', [-181, 0]],
    ['NaN', [Number.NaN, 0]],
  ] as Array<[string, [number, number]]>)('%s gives undefined', (_name, point) => {
    expect(zones.zoneAt(point)).toBeUndefined();
  });

  test('a tiny tile cache stays within its bound and still answers correctly', () => {
    const small = createGeoTzTimeZones({ cachedTiles: 2 });
    const cities: Array<[[number, number], string]> = [
      [[-73.9855, 40.758], 'America/New_York'],
      [[2.3522, 48.8566], 'Europe/Paris'],
      [[139.6917, 35.6895], 'Asia/Tokyo'],
      [[-43.1729, -22.9068], 'America/Sao_Paulo'],
    ];
    for (let round = 0; round < 3; round++) {
      for (const [point, zone] of cities) expect(small.zoneAt(point)).toBe(zone);
    }
    expect(small.tileCache.size).toBeLessThanOrEqual(2);
    createGeoTzTimeZones(); // put the process-wide default back for other tests
  });
});

describe('LeastRecentlyUsed', () => {
  test('forgets the least recently used entry, and reading refreshes an entry', () => {
    const lru = new LeastRecentlyUsed<string, number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    expect(lru.get('a')).toBe(1);
    lru.set('c', 3);
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBe(1);
    expect(lru.get('c')).toBe(3);
    expect(lru.size).toBe(2);
  });

  test('capacity 0 keeps nothing; a negative or fractional capacity is refused', () => {
    const off = new LeastRecentlyUsed<string, number>(0);
    off.set('a', 1);
    expect(off.get('a')).toBeUndefined();
    expect(off.size).toBe(0);
    expect(() => new LeastRecentlyUsed(-1)).toThrow(RangeError);
    expect(() => new LeastRecentlyUsed(1.5)).toThrow(RangeError);
  });

  test('delete forgets an entry; has does not refresh it', () => {
    const lru = new LeastRecentlyUsed<string, number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    expect(lru.has('a')).toBe(true);
    lru.set('c', 3);
    expect(lru.has('a')).toBe(false);
    lru.delete('b');
    expect(lru.get('b')).toBeUndefined();
    expect(lru.size).toBe(1);
  });
});
