import { InputError } from '../../core/input/input-error';
import { collectGeofenceInputErrors, parseGeofenceInput, type GeofenceInput } from '../../core/input/geofence-input';
import { circleGeometry } from '../../core/geofence-shape';

const square: Array<[number, number]> = [
  [-73.99, 40.7],
  [-73.98, 40.7],
  [-73.98, 40.71],
  [-73.99, 40.71],
  [-73.99, 40.7],
];

const circleBody = { description: 'Store', type: 'circle', coordinates: '[-73.98706,40.7041029]', radius: '100' };
const polygonBody = { description: 'Block', type: 'polygon', coordinates: square };

function ringOf(n: number): Array<[number, number]> {
  // n - 1 distinct points on a small circle, then the closing point.
  const ring: Array<[number, number]> = [];
  for (let i = 0; i < n - 1; i++) {
    const t = (2 * Math.PI * i) / (n - 1);
    ring.push([10 + 0.01 * Math.cos(t), 50 + 0.01 * Math.sin(t)]);
  }
  ring.push(ring[0]);
  return ring;
}

describe('parseGeofenceInput: accepted bodies', () => {
  it('builds a circle from form-style strings', () => {
    const value = parseGeofenceInput(circleBody, { mode: 'api' });
    expect(value).toEqual({
      description: 'Store',
      type: 'circle',
      geometry: circleGeometry([-73.98706, 40.7041029], 100),
      geometryCenter: { type: 'Point', coordinates: [-73.98706, 40.7041029] },
      geometryRadius: 100,
      enabled: true,
    });
  });

  it('builds a circle from JSON numbers', () => {
    const value = parseGeofenceInput({ description: 'Store', type: 'circle', coordinates: [2.35, 48.85], radius: 250 }, { mode: 'api' });
    expect(value.geometryRadius).toBe(250);
    expect(value.geometryCenter.coordinates).toEqual([2.35, 48.85]);
    expect(value.geometry.coordinates[0]).toHaveLength(33);
  });

  it('builds a polygon with centroid and approximate radius', () => {
    const value = parseGeofenceInput(polygonBody, { mode: 'api' });
    expect(value.geometry).toEqual({ type: 'Polygon', coordinates: [square] });
    expect(value.geometryCenter.coordinates[0]).toBeCloseTo(-73.985, 9);
    expect(value.geometryCenter.coordinates[1]).toBeCloseTo(40.705, 9);
    // Half the diagonal of a ~843 m × 1112 m box.
    expect(value.geometryRadius).toBeGreaterThan(690);
    expect(value.geometryRadius).toBeLessThan(710);
  });

  const variants: Array<{ name: string; body: Record<string, unknown>; expected: Partial<GeofenceInput> }> = [
    { name: 'polygon ring as a JSON string', body: { ...polygonBody, coordinates: JSON.stringify(square) }, expected: { geometry: { type: 'Polygon', coordinates: [square] } } },
    { name: 'polygon ring wrapped as GeoJSON coordinates', body: { ...polygonBody, coordinates: [square] }, expected: { geometry: { type: 'Polygon', coordinates: [square] } } },
    { name: 'polygon ignores radius, even unreadable', body: { ...polygonBody, radius: 'n/a' }, expected: { type: 'polygon' } },
    { name: 'polygon altitude dropped', body: { ...polygonBody, coordinates: square.map(([x, y]) => [x, y, 12]) }, expected: { geometry: { type: 'Polygon', coordinates: [square] } } },
    { name: 'circle coordinates as numeric strings', body: { ...circleBody, coordinates: ['-73.98706', '40.7041029'] }, expected: { geometryCenter: { type: 'Point', coordinates: [-73.98706, 40.7041029] } } },
    { name: 'polygon coordinates as numeric strings', body: { ...polygonBody, coordinates: square.map(([x, y]) => [String(x), String(y)]) }, expected: { geometry: { type: 'Polygon', coordinates: [square] } } },
    { name: 'type in any case', body: { ...circleBody, type: ' Circle ' }, expected: { type: 'circle' } },
    { name: 'enabled false as a string', body: { ...circleBody, enabled: 'false' }, expected: { enabled: false } },
    { name: 'enabled true as a boolean', body: { ...circleBody, enabled: true }, expected: { enabled: true } },
    { name: 'radius at the lower limit', body: { ...circleBody, radius: '10' }, expected: { geometryRadius: 10 } },
    { name: 'radius at the upper limit', body: { ...circleBody, radius: 10000 }, expected: { geometryRadius: 10000 } },
    { name: 'tag and externalId kept', body: { ...circleBody, tag: 'store', externalId: '123' }, expected: { tag: 'store', externalId: '123' } },
    { name: 'metadata JSON string', body: { ...circleBody, metadata: '{"a":"x","b":2,"c":true}' }, expected: { metadata: { a: 'x', b: 2, c: true } } },
    { name: 'metadata dictionary', body: { ...circleBody, metadata: { brand: 'acme' } }, expected: { metadata: { brand: 'acme' } } },
    { name: 'userIds comma-separated', body: { ...circleBody, userIds: 'u1, u2,,u3' }, expected: { userIds: ['u1', 'u2', 'u3'] } },
    { name: 'userIds array', body: { ...circleBody, userIds: ['u1', 'u2'] }, expected: { userIds: ['u1', 'u2'] } },
    { name: 'deprecated userId', body: { ...circleBody, userId: 'u9' }, expected: { userId: 'u9' } },
    { name: 'ip ranges normalised', body: { ...circleBody, ip: '10.1.2.*, 192.168.1.7/16, 2001:DB8::1' }, expected: { ip: ['10.1.2.*', '192.168.0.0/16', '2001:db8::1'] } },
    { name: 'thresholds from strings', body: { ...circleBody, dwellThreshold: '5', tripApproachingThreshold: '2.5' }, expected: { dwellThreshold: 5, tripApproachingThreshold: 2.5 } },
    { name: 'stopDetection', body: { ...circleBody, stopDetection: 'true' }, expected: { stopDetection: true } },
    {
      name: 'operatingHours JSON string normalised',
      body: { ...circleBody, operatingHours: '{"monday":[["8:00 am","8:30 pm"]],"SAT":[["10:00","14:00"]]}' },
      expected: { operatingHours: { Mon: [['08:00', '20:30']], Sat: [['10:00', '14:00']] } },
    },
    { name: 'operatingHours dictionary', body: { ...circleBody, operatingHours: { Fri: [['22:00', '02:00']] } }, expected: { operatingHours: { Fri: [['22:00', '02:00']] } } },
    { name: 'datetimes to ISO with milliseconds', body: { ...circleBody, disableAfter: '2030-01-01', deleteAfter: '2030-06-01T12:00:00+02:00' }, expected: { disableAfter: '2030-01-01T00:00:00.000Z', deleteAfter: '2030-06-01T10:00:00.000Z' } },
    { name: 'coordinates win over address, address kept', body: { ...circleBody, address: '20 Jay St, Brooklyn' }, expected: { address: '20 Jay St, Brooklyn', geometryCenter: { type: 'Point', coordinates: [-73.98706, 40.7041029] } } },
    { name: 'placeId kept beside coordinates', body: { ...circleBody, placeId: 'p1' }, expected: { placeId: 'p1' } },
    { name: 'mode on a circle is checked but not kept', body: { ...circleBody, mode: 'car' }, expected: {} },
  ];
  it.each(variants)('$name', ({ body, expected }) => {
    const value = parseGeofenceInput(body, { mode: 'api' });
    expect(value).toMatchObject(expected);
  });

  const absent: Array<{ name: string; body: Record<string, unknown>; key: keyof GeofenceInput }> = [
    { name: 'empty ip means no restriction', body: { ...circleBody, ip: '' }, key: 'ip' },
    { name: 'ip of only commas means no restriction', body: { ...circleBody, ip: ' , ' }, key: 'ip' },
    { name: 'empty operatingHours dictionary', body: { ...circleBody, operatingHours: '{}' }, key: 'operatingHours' },
    { name: 'null metadata (JS SDK sends nulls)', body: { ...circleBody, metadata: null }, key: 'metadata' },
    { name: 'empty userIds', body: { ...circleBody, userIds: '' }, key: 'userIds' },
    { name: 'mode on a circle', body: { ...circleBody, mode: 'car' }, key: 'mode' },
    { name: 'tag not given in api mode', body: circleBody, key: 'tag' },
  ];
  it.each(absent)('$name → no $key key', ({ body, key }) => {
    const value = parseGeofenceInput(body, { mode: 'api' });
    expect(Object.prototype.hasOwnProperty.call(value, key)).toBe(false);
  });

  it('csv mode accepts a row with tag and externalId', () => {
    const value = parseGeofenceInput({ ...circleBody, tag: 't', externalId: 'e' }, { mode: 'csv' });
    expect(value).toMatchObject({ tag: 't', externalId: 'e' });
  });
});

describe('parseGeofenceInput: rejected bodies', () => {
  const cases: Array<{ name: string; body: Record<string, unknown>; mode?: 'api' | 'csv'; param: string; message: RegExp }> = [
    { name: 'description missing', body: { ...circleBody, description: undefined }, param: 'description', message: /^description is required$/ },
    { name: 'description empty', body: { ...circleBody, description: '' }, param: 'description', message: /^description is required$/ },
    { name: 'type missing', body: { ...circleBody, type: undefined }, param: 'type', message: /^type is required$/ },
    { name: 'type unknown', body: { ...circleBody, type: 'square' }, param: 'type', message: /^type must be one of circle, polygon, isochrone$/ },
    { name: 'isochrone', body: { ...circleBody, type: 'isochrone', radius: '10', mode: 'car' }, param: 'type', message: /^isochrone geofences need a road network \(an imported extract or a configured routing engine\)$/ },
    { name: 'csv tag missing', body: { ...circleBody, externalId: 'e' }, mode: 'csv', param: 'tag', message: /^tag is required$/ },
    { name: 'csv externalId missing', body: { ...circleBody, tag: 't' }, mode: 'csv', param: 'externalId', message: /^externalId is required$/ },
    { name: 'circle radius missing', body: { ...circleBody, radius: undefined }, param: 'radius', message: /^radius is required for circle geofences \(meters, 10 to 10000\)$/ },
    { name: 'circle radius below 10', body: { ...circleBody, radius: '9.9' }, param: 'radius', message: /^radius must be between 10 and 10000$/ },
    { name: 'circle radius above 10000', body: { ...circleBody, radius: 10001 }, param: 'radius', message: /^radius must be between 10 and 10000$/ },
    { name: 'circle radius not a number', body: { ...circleBody, radius: '100m' }, param: 'radius', message: /^radius must be a number$/ },
    { name: 'circle coordinates missing', body: { ...circleBody, coordinates: undefined }, param: 'coordinates', message: /^coordinates is required/ },
    { name: 'circle coordinates as lat,lng text', body: { ...circleBody, coordinates: '40.7,-73.9' }, param: 'coordinates', message: /^coordinates must be valid JSON$/ },
    { name: 'circle coordinates three numbers', body: { ...circleBody, coordinates: [1, 2, 3] }, param: 'coordinates', message: /^coordinates must be \[longitude,latitude\]$/ },
    { name: 'circle coordinates a ring', body: { ...circleBody, coordinates: square }, param: 'coordinates', message: /^coordinates must be \[longitude,latitude\]$/ },
    { name: 'circle longitude out of range', body: { ...circleBody, coordinates: [200, 10] }, param: 'coordinates', message: /longitude must be between -180 and 180/ },
    { name: 'circle latitude out of range', body: { ...circleBody, coordinates: '[10, -91]' }, param: 'coordinates', message: /latitude must be between -90 and 90/ },
    { name: 'circle with address only', body: { ...circleBody, coordinates: undefined, address: '20 Jay St' }, param: 'address', message: /^address needs a geocoder .* none is configured/ },
    { name: 'circle with placeId only', body: { ...circleBody, coordinates: undefined, placeId: 'p1' }, param: 'placeId', message: /^placeId "p1" is not a known place \(imported extracts\); give coordinates as well$/ },
    { name: 'polygon coordinates missing', body: { ...polygonBody, coordinates: undefined }, param: 'coordinates', message: /^coordinates is required for polygon geofences/ },
    { name: 'polygon with address only', body: { ...polygonBody, coordinates: undefined, address: '20 Jay St' }, param: 'coordinates', message: /^coordinates is required for polygon/ },
    { name: 'polygon ring of 3', body: { ...polygonBody, coordinates: [square[0], square[1], square[0]] }, param: 'coordinates', message: /^coordinates must be a closed ring of at least 4 coordinates, got 3$/ },
    { name: 'polygon ring of 2001', body: { ...polygonBody, coordinates: ringOf(2001) }, param: 'coordinates', message: /^coordinates must have at most 2000 coordinates, got 2001$/ },
    { name: 'polygon not closed', body: { ...polygonBody, coordinates: square.slice(0, 4).concat([[-73.99, 40.705]]) }, param: 'coordinates', message: /^coordinates must be closed/ },
    {
      name: 'polygon bow-tie',
      body: { ...polygonBody, coordinates: [[0, 0], [1, 1], [1, 0], [0, 1], [0, 0]] },
      param: 'coordinates',
      message: /^coordinates must not intersect itself/,
    },
    {
      name: 'polygon across the antimeridian',
      body: { ...polygonBody, coordinates: [[179.9, 0], [-179.9, 0], [-179.9, 1], [179.9, 1], [179.9, 0]] },
      param: 'coordinates',
      message: /^coordinates must not cross the antimeridian/,
    },
    { name: 'polygon ring not JSON', body: { ...polygonBody, coordinates: '[[1,2],' }, param: 'coordinates', message: /^coordinates must be valid JSON$/ },
    { name: 'polygon coordinate not a pair', body: { ...polygonBody, coordinates: [square[0], 5, square[2], square[3], square[0]] }, param: 'coordinates', message: /^coordinates coordinate 1 must be a \[longitude, latitude\] pair$/ },
    { name: 'mode unknown', body: { ...circleBody, mode: 'plane' }, param: 'mode', message: /^mode must be one of car, truck, foot, bike$/ },
    { name: 'metadata 17 keys', body: { ...circleBody, metadata: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, i])) }, param: 'metadata', message: /at most 16 keys/ },
    { name: 'metadata nested value', body: { ...circleBody, metadata: '{"a":{"b":1}}' }, param: 'metadata.a', message: /^metadata\.a must be a string, boolean or number$/ },
    { name: 'metadata not JSON', body: { ...circleBody, metadata: 'brand=acme' }, param: 'metadata', message: /^metadata must be valid JSON$/ },
    { name: 'metadata a list', body: { ...circleBody, metadata: '[1]' }, param: 'metadata', message: /^metadata must be a dictionary/ },
    { name: 'userIds an object', body: { ...circleBody, userIds: { a: 1 } }, param: 'userIds', message: /^userIds must be a comma-separated list$/ },
    { name: 'ip invalid', body: { ...circleBody, ip: '10.0.0.1, 10.0.0.300' }, param: 'ip', message: /^ip entry 2 "10\.0\.0\.300" is not valid/ },
    { name: 'ip prefix too long', body: { ...circleBody, ip: '10.0.0.0/40' }, param: 'ip', message: /from 0 to 32/ },
    { name: 'dwellThreshold zero', body: { ...circleBody, dwellThreshold: '0' }, param: 'dwellThreshold', message: /^dwellThreshold must be greater than 0$/ },
    { name: 'dwellThreshold negative', body: { ...circleBody, dwellThreshold: -5 }, param: 'dwellThreshold', message: /greater than 0/ },
    { name: 'dwellThreshold text', body: { ...circleBody, dwellThreshold: 'five' }, param: 'dwellThreshold', message: /^dwellThreshold must be a number$/ },
    { name: 'tripApproachingThreshold zero', body: { ...circleBody, tripApproachingThreshold: 0 }, param: 'tripApproachingThreshold', message: /greater than 0/ },
    { name: 'stopDetection not a boolean', body: { ...circleBody, stopDetection: 'maybe' }, param: 'stopDetection', message: /^stopDetection must be a boolean/ },
    { name: 'enabled not a boolean', body: { ...circleBody, enabled: 'nope' }, param: 'enabled', message: /^enabled must be a boolean/ },
    { name: 'operatingHours bad time', body: { ...circleBody, operatingHours: { Mon: [['8:00', '25:00']] } }, param: 'operatingHours', message: /^operatingHours\.Mon close time "25:00"/ },
    { name: 'operatingHours unknown day', body: { ...circleBody, operatingHours: '{"Lun":[["08:00","17:00"]]}' }, param: 'operatingHours', message: /unknown day "Lun"/ },
    { name: 'disableAfter not a date', body: { ...circleBody, disableAfter: 'tomorrow' }, param: 'disableAfter', message: /^disableAfter must be a date or an ISO 8601 datetime$/ },
    { name: 'deleteAfter not a date', body: { ...circleBody, deleteAfter: '2030-13-45' }, param: 'deleteAfter', message: /^deleteAfter must be a date/ },
  ];
  it.each(cases)('$name → 400 on $param', ({ body, mode, param, message }) => {
    let caught: unknown;
    try {
      parseGeofenceInput(body, { mode: mode ?? 'api' });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(InputError);
    const bad = caught as InputError;
    expect(bad.param).toBe(param);
    expect(bad.message).toMatch(message);
  });
});

describe('collectGeofenceInputErrors', () => {
  it('returns every problem of a row, in field order', () => {
    const { value, errors } = collectGeofenceInputErrors(
      { type: 'circle', coordinates: '[1]', radius: '5', metadata: 'x', ip: 'nope', enabled: 'maybe' },
      { mode: 'csv' },
    );
    expect(value).toBeUndefined();
    expect(errors.map((e) => e.param)).toEqual(['description', 'tag', 'externalId', 'coordinates', 'radius', 'metadata', 'ip', 'enabled']);
  });

  it('does not also call invalid coordinates missing', () => {
    const { errors } = collectGeofenceInputErrors({ ...circleBody, coordinates: '[999, 0]' }, { mode: 'api' });
    expect(errors).toEqual([{ param: 'coordinates', message: 'coordinates longitude must be between -180 and 180' }]);
  });

  it('skips type-dependent rules when the type is unknown', () => {
    const { errors } = collectGeofenceInputErrors({ description: 'x', type: 'hexagon', radius: '1' }, { mode: 'api' });
    expect(errors.map((e) => e.param)).toEqual(['type']);
  });

  it('reports an isochrone row\'s own problems before asking for its outline', () => {
    const { errors } = collectGeofenceInputErrors({ description: 'x', type: 'isochrone', coordinates: '[1,2]', mode: 'rocket' }, { mode: 'api' });
    expect(errors.map((e) => e.param)).toEqual(['radius', 'mode']);
  });

  it('returns a value and no errors for a good row', () => {
    const result = collectGeofenceInputErrors(circleBody, { mode: 'api' });
    expect(result.errors).toEqual([]);
    expect(result.value?.geometryRadius).toBe(100);
  });
});
