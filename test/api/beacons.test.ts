// Beacons (spec "Beacon" and "Beacons"): create, upsert, get and delete by _id or (tag, externalId), with
// JSON and form-encoded bodies alike; every body rule; the list with limit, date cursors and filters.
import { startTestServer, type ProjectKeys, type TestServer } from '../support/server';
import { afterMillisecond, call, expectCase, ISO_MS, OBJECT_ID, type Want } from './foundation-expect';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

type Body = Record<string, unknown>;
type Beacon = Record<string, unknown> & { _id: string; createdAt: string; updatedAt: string };

const UUID = '2f234454-cf6d-4a0f-adf2-f4911ba9ffa6';
const UID = '0123456789abcdef0123';
const INSTANCE = 'a1b2c3d4e5f6';

function ibeacon(over: Body = {}): Body {
  return {
    description: 'Lobby', tag: 'store', externalId: 'lobby', type: 'ibeacon',
    uuid: UUID, major: '100', minor: '7', coordinates: [-73.9857, 40.7484], ...over,
  };
}

function eddystone(over: Body = {}): Body {
  return {
    description: 'Dock', tag: 'store', externalId: 'dock', type: 'eddystone',
    uid: UID, instance: INSTANCE, coordinates: [2.2945, 48.8584], ...over,
  };
}

const ENCODINGS: Array<{ encoding: string; form: boolean }> = [
  { encoding: 'JSON', form: false },
  { encoding: 'form', form: true },
];

async function create(k: ProjectKeys, body: Body, form = false): Promise<Beacon> {
  const reply = await call(s, 'POST', '/v1/beacons', { key: k.testSk, body, form });
  expect([reply.status, reply.body.meta]).toEqual([200, { code: 200 }]);
  return reply.body.beacon as Beacon;
}

async function list(k: ProjectKeys, query: Record<string, string | number> = {}): Promise<{ ids: string[]; hasMore: boolean; beacons: Beacon[] }> {
  const reply = await call(s, 'GET', '/v1/beacons', { key: k.testSk, query });
  expect(reply.status).toBe(200);
  return { ids: reply.body.beacons.map((b: Beacon) => b._id), hasMore: reply.body.meta.hasMore, beacons: reply.body.beacons };
}

/** Creates beacons one after another, each in a later millisecond than the one before. */
async function createSeries(k: ProjectKeys, n: number, over: (i: number) => Body = () => ({})): Promise<Beacon[]> {
  const out: Beacon[] = [];
  for (let i = 0; i < n; i++) {
    if (out.length) await afterMillisecond(out[out.length - 1].createdAt);
    out.push(await create(k, ibeacon({ externalId: `b${i}`, ...over(i) })));
  }
  return out;
}

describe('create', () => {
  test.each(ENCODINGS)('$encoding body: an iBeacon as stored and returned', async ({ form }) => {
    const k = await s.newProject(`create-ibeacon-${form}`);
    const beacon = await create(k, ibeacon({ uuid: UUID.toUpperCase(), major: '007', metadata: { floor: 1, zone: 'A', staffed: true } }), form);
    expect(beacon).toEqual({
      _id: expect.stringMatching(OBJECT_ID),
      createdAt: expect.stringMatching(ISO_MS),
      updatedAt: beacon.createdAt,
      live: false,
      description: 'Lobby',
      tag: 'store',
      externalId: 'lobby',
      type: 'ibeacon',
      uuid: UUID,
      major: '7',
      minor: '7',
      geometry: { type: 'Point', coordinates: [-73.9857, 40.7484] },
      enabled: true,
      metadata: { floor: 1, zone: 'A', staffed: true },
    });
    const got = await call(s, 'GET', `/v1/beacons/${beacon._id}`, { key: k.testSk });
    expect(got.body).toEqual({ meta: { code: 200 }, beacon });
  });

  test.each(ENCODINGS)('$encoding body: an Eddystone beacon as stored and returned', async ({ form }) => {
    const k = await s.newProject(`create-eddystone-${form}`);
    // iBeacon fields sent along with an Eddystone beacon are not kept.
    const beacon = await create(k, eddystone({ uid: UID.toUpperCase(), instance: INSTANCE.toUpperCase(), uuid: UUID, major: '1' }), form);
    expect(beacon).toEqual({
      _id: expect.stringMatching(OBJECT_ID),
      createdAt: expect.stringMatching(ISO_MS),
      updatedAt: beacon.createdAt,
      live: false,
      description: 'Dock',
      tag: 'store',
      externalId: 'dock',
      type: 'eddystone',
      uid: UID,
      instance: INSTANCE,
      geometry: { type: 'Point', coordinates: [2.2945, 48.8584] },
      enabled: true,
    });
  });

  test('a live key creates a live beacon', async () => {
    const k = await s.newProject('create-live');
    const reply = await call(s, 'POST', '/v1/beacons', { key: k.liveSk, body: ibeacon() });
    expect([reply.status, reply.body.beacon.live]).toEqual([200, true]);
  });

  test('POST with an existing (tag, externalId) updates that beacon instead of adding a twin', async () => {
    const k = await s.newProject('create-twice');
    const first = await create(k, ibeacon());
    await afterMillisecond(first.createdAt);
    const second = await create(k, ibeacon({ description: 'Lobby, moved' }));
    expect([second._id, second.createdAt, second.description]).toEqual([first._id, first.createdAt, 'Lobby, moved']);
    expect(second.updatedAt > first.updatedAt).toBe(true);
    expect((await list(k)).ids).toEqual([first._id]);
  });

  const accepted: Array<{ name: string; body: Body; field: string; value: unknown }> = [
    { name: 'enabled omitted → true', body: ibeacon(), field: 'enabled', value: true },
    { name: 'enabled false', body: ibeacon({ enabled: false }), field: 'enabled', value: false },
    { name: 'enabled "false"', body: ibeacon({ enabled: 'false' }), field: 'enabled', value: false },
    { name: 'enabled "true"', body: ibeacon({ enabled: 'true' }), field: 'enabled', value: true },
    { name: 'major 0', body: ibeacon({ major: '0' }), field: 'major', value: '0' },
    { name: 'major 65535', body: ibeacon({ major: '65535' }), field: 'major', value: '65535' },
    { name: 'minor as a JSON-style number', body: ibeacon({ minor: 42 }), field: 'minor', value: '42' },
    { name: 'coordinates at the corner', body: ibeacon({ coordinates: [180, -90] }), field: 'geometry', value: { type: 'Point', coordinates: [180, -90] } },
    { name: 'coordinates as JSON text', body: ibeacon({ coordinates: '[10.5,-20.25]' }), field: 'geometry', value: { type: 'Point', coordinates: [10.5, -20.25] } },
    {
      name: 'metadata with 16 keys',
      body: ibeacon({ metadata: Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`k${i}`, i])) }),
      field: 'metadata', value: Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`k${i}`, i])),
    },
    { name: 'metadata value types kept', body: ibeacon({ metadata: { s: '1', n: 1.5, b: false } }), field: 'metadata', value: { s: '1', n: 1.5, b: false } },
    { name: 'metadata as JSON text', body: ibeacon({ metadata: '{"a":"b"}' }), field: 'metadata', value: { a: 'b' } },
    { name: 'tag of 256 characters', body: ibeacon({ tag: 't'.repeat(256) }), field: 'tag', value: 't'.repeat(256) },
  ];
  const acceptedRows = ENCODINGS.flatMap((e) => accepted.map((a) => ({ ...e, ...a })));
  test.each(acceptedRows)('$encoding: $name', async ({ form, body, field, value }) => {
    const k = await s.newProject('create-accepted');
    const beacon = await create(k, body, form);
    expect(beacon[field]).toEqual(value);
  });
});

describe('create: body rules', () => {
  const uuidMessage = `uuid must be a UUID like ${UUID}`;
  const majorMessage = 'major must be an integer from 0 to 65535';
  const minorMessage = 'minor must be an integer from 0 to 65535';
  const uidMessage = 'uid must be the 10-byte Eddystone namespace as 20 hex characters';
  const instanceMessage = 'instance must be the 6-byte Eddystone instance as 12 hex characters';
  const seventeen = Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, i]));
  const refused: Array<{ name: string; body: Body; want: Want; jsonOnly?: boolean }> = [
    { name: 'description missing', body: ibeacon({ description: undefined }), want: { status: 400, param: 'description', message: 'description is required' } },
    { name: 'description empty', body: ibeacon({ description: '' }), want: { status: 400, param: 'description', message: 'description is required' } },
    { name: 'description an object', body: ibeacon({ description: { a: 1 } }), want: { status: 400, param: 'description', message: 'description must be a string' }, jsonOnly: true },
    { name: 'tag missing', body: ibeacon({ tag: undefined }), want: { status: 400, param: 'tag', message: 'tag is required' } },
    { name: 'tag over 256 characters', body: ibeacon({ tag: 't'.repeat(257) }), want: { status: 400, param: 'tag', message: 'tag must be at most 256 characters' } },
    { name: 'externalId missing', body: ibeacon({ externalId: undefined }), want: { status: 400, param: 'externalId', message: 'externalId is required' } },
    { name: 'externalId over 256 characters', body: ibeacon({ externalId: 'e'.repeat(257) }), want: { status: 400, param: 'externalId', message: 'externalId must be at most 256 characters' } },
    { name: 'type missing', body: ibeacon({ type: undefined }), want: { status: 400, param: 'type', message: 'type is required' } },
    { name: 'type unknown', body: ibeacon({ type: 'bluetooth' }), want: { status: 400, param: 'type', message: 'type must be one of ibeacon, eddystone' } },
    { name: 'type in upper case', body: ibeacon({ type: 'IBEACON' }), want: { status: 400, param: 'type', message: 'type must be one of ibeacon, eddystone' } },
    { name: 'ibeacon: uuid missing', body: ibeacon({ uuid: undefined }), want: { status: 400, param: 'uuid', message: 'uuid is required' } },
    { name: 'ibeacon: uuid malformed', body: ibeacon({ uuid: 'not-a-uuid' }), want: { status: 400, param: 'uuid', message: uuidMessage } },
    { name: 'ibeacon: uuid without dashes', body: ibeacon({ uuid: UUID.replace(/-/g, '') }), want: { status: 400, param: 'uuid', message: uuidMessage } },
    { name: 'ibeacon: uuid one digit short', body: ibeacon({ uuid: UUID.slice(0, -1) }), want: { status: 400, param: 'uuid', message: uuidMessage } },
    { name: 'ibeacon: only Eddystone fields', body: eddystone({ type: 'ibeacon' }), want: { status: 400, param: 'uuid', message: 'uuid is required' } },
    { name: 'ibeacon: major missing', body: ibeacon({ major: undefined }), want: { status: 400, param: 'major', message: 'major is required' } },
    { name: 'ibeacon: major 65536', body: ibeacon({ major: '65536' }), want: { status: 400, param: 'major', message: majorMessage } },
    { name: 'ibeacon: major -1', body: ibeacon({ major: '-1' }), want: { status: 400, param: 'major', message: majorMessage } },
    { name: 'ibeacon: major 1.5', body: ibeacon({ major: 1.5 }), want: { status: 400, param: 'major', message: majorMessage } },
    { name: 'ibeacon: major a word', body: ibeacon({ major: 'ten' }), want: { status: 400, param: 'major', message: majorMessage } },
    { name: 'ibeacon: minor missing', body: ibeacon({ minor: undefined }), want: { status: 400, param: 'minor', message: 'minor is required' } },
    { name: 'ibeacon: minor 70000', body: ibeacon({ minor: 70000 }), want: { status: 400, param: 'minor', message: minorMessage } },
    { name: 'eddystone: uid missing', body: eddystone({ uid: undefined }), want: { status: 400, param: 'uid', message: 'uid is required' } },
    { name: 'eddystone: uid of 9 bytes', body: eddystone({ uid: UID.slice(0, 18) }), want: { status: 400, param: 'uid', message: uidMessage } },
    { name: 'eddystone: uid not hex', body: eddystone({ uid: 'zz'.repeat(10) }), want: { status: 400, param: 'uid', message: uidMessage } },
    { name: 'eddystone: instance missing', body: eddystone({ instance: undefined }), want: { status: 400, param: 'instance', message: 'instance is required' } },
    { name: 'eddystone: instance of 5 bytes', body: eddystone({ instance: INSTANCE.slice(0, 10) }), want: { status: 400, param: 'instance', message: instanceMessage } },
    { name: 'eddystone: only iBeacon fields', body: ibeacon({ type: 'eddystone' }), want: { status: 400, param: 'uid', message: 'uid is required' } },
    { name: 'coordinates missing', body: ibeacon({ coordinates: undefined }), want: { status: 400, param: 'coordinates', message: 'coordinates is required' } },
    { name: 'coordinates: longitude 200', body: ibeacon({ coordinates: [200, 10] }), want: { status: 400, param: 'coordinates', message: 'coordinates longitude must be between -180 and 180' } },
    { name: 'coordinates: latitude 95', body: ibeacon({ coordinates: [10, 95] }), want: { status: 400, param: 'coordinates', message: 'coordinates latitude must be between -90 and 90' } },
    { name: 'coordinates: one number', body: ibeacon({ coordinates: [10] }), want: { status: 400, param: 'coordinates', message: 'coordinates must be [longitude,latitude]' } },
    { name: 'coordinates: three numbers', body: ibeacon({ coordinates: [10, 20, 30] }), want: { status: 400, param: 'coordinates', message: 'coordinates must be [longitude,latitude]' } },
    { name: 'coordinates: "lat,lng" text', body: ibeacon({ coordinates: '40.7,-73.9' }), want: { status: 400, param: 'coordinates', message: 'coordinates must be valid JSON' } },
    { name: 'metadata: 17 keys', body: ibeacon({ metadata: seventeen }), want: { status: 400, param: 'metadata', message: 'metadata can have at most 16 keys' } },
    { name: 'metadata: nested value', body: ibeacon({ metadata: { a: { b: 1 } } }), want: { status: 400, param: 'metadata.a', message: 'metadata.a must be a string, boolean or number' } },
    { name: 'metadata: list value', body: ibeacon({ metadata: { a: [1] } }), want: { status: 400, param: 'metadata.a', message: 'metadata.a must be a string, boolean or number' } },
    { name: 'metadata: null value', body: ibeacon({ metadata: { a: null } }), want: { status: 400, param: 'metadata.a', message: 'metadata.a must be a string, boolean or number' } },
    { name: 'metadata: a list', body: ibeacon({ metadata: ['a'] }), want: { status: 400, param: 'metadata', message: 'metadata must be a dictionary (a JSON object)' } },
    { name: 'metadata: not JSON', body: ibeacon({ metadata: 'floor=1' }), want: { status: 400, param: 'metadata', message: 'metadata must be valid JSON' } },
    { name: 'enabled: not a boolean', body: ibeacon({ enabled: 'maybe' }), want: { status: 400, param: 'enabled', message: 'enabled must be a boolean (true or false)' } },
  ];
  let k: ProjectKeys;
  beforeAll(async () => {
    k = await s.newProject('create-refused');
  });
  const rows = ENCODINGS.flatMap((e) => refused.filter((r) => !(r.jsonOnly && e.form)).map((r) => ({ ...e, ...r })));
  test.each(rows)('$encoding: $name → $want.status $want.param', async ({ form, body, want }) => {
    await expectCase(s, { method: 'POST', path: '/v1/beacons', opts: { key: k.testSk, body, form }, want });
  });
  test('none of the refused bodies stored anything', async () => {
    expect((await list(k)).ids).toEqual([]);
  });
});

describe('upsert (PUT)', () => {
  test.each(ENCODINGS)('$encoding body: PUT by tag/externalId creates, taking both from the path', async ({ form }) => {
    const k = await s.newProject('upsert-create');
    const reply = await call(s, 'PUT', '/v1/beacons/hall/door-1', { key: k.testSk, form, body: ibeacon({ tag: 'ignored', externalId: 'ignored' }) });
    expect(reply.status).toBe(200);
    expect(reply.body.beacon).toMatchObject({ tag: 'hall', externalId: 'door-1', description: 'Lobby', enabled: true, live: false });
    const got = await call(s, 'GET', '/v1/beacons/hall/door-1', { key: k.testSk });
    expect(got.body.beacon).toEqual(reply.body.beacon);
  });

  test('tag and externalId with spaces and slashes, percent-encoded in the path', async () => {
    const k = await s.newProject('upsert-encoded');
    const path = `/v1/beacons/${encodeURIComponent('store a')}/${encodeURIComponent('x/y?z')}`;
    const put = await call(s, 'PUT', path, { key: k.testSk, body: ibeacon() });
    expect([put.status, put.body.beacon.tag, put.body.beacon.externalId]).toEqual([200, 'store a', 'x/y?z']);
    expect((await call(s, 'GET', path, { key: k.testSk })).body.beacon._id).toBe(put.body.beacon._id);
    expect((await list(k, { tag: 'store a', externalId: 'x/y?z' })).ids).toEqual([put.body.beacon._id]);
  });

  test('PUT again replaces the fields, keeps _id and createdAt, moves updatedAt', async () => {
    const k = await s.newProject('upsert-update');
    const first = (await call(s, 'PUT', '/v1/beacons/hall/door', { key: k.testSk, body: ibeacon({ enabled: false, metadata: { a: 1 } }) })).body.beacon;
    await afterMillisecond(first.updatedAt);
    const second = (await call(s, 'PUT', '/v1/beacons/hall/door', { key: k.testSk, body: eddystone({ description: 'Door' }) })).body.beacon;
    expect(second).toEqual({
      _id: first._id, createdAt: first.createdAt, updatedAt: expect.stringMatching(ISO_MS), live: false,
      tag: 'hall', externalId: 'door', description: 'Door', type: 'eddystone', uid: UID, instance: INSTANCE,
      geometry: { type: 'Point', coordinates: [2.2945, 48.8584] },
      // enabled defaults to true again; metadata not sent is gone; iBeacon fields are dropped with the type.
      enabled: true,
    });
    expect(second.updatedAt > first.updatedAt).toBe(true);
    expect((await list(k)).ids).toEqual([first._id]);
  });

  test.each(ENCODINGS)('$encoding body: PUT by _id updates that beacon and keeps its tag and externalId', async ({ form }) => {
    const k = await s.newProject('upsert-by-id');
    const made = await create(k, ibeacon());
    const reply = await call(s, 'PUT', `/v1/beacons/${made._id}`, { key: k.testSk, form, body: ibeacon({ description: 'Renamed', tag: 'other', externalId: 'other', minor: '8' }) });
    expect(reply.status).toBe(200);
    expect(reply.body.beacon).toMatchObject({ _id: made._id, tag: 'store', externalId: 'lobby', description: 'Renamed', minor: '8', createdAt: made.createdAt });
    expect((await call(s, 'GET', '/v1/beacons/other/other', { key: k.testSk })).status).toBe(404);
  });

  const notFound: Array<{ name: string; id: string }> = [
    { name: 'a well-formed _id never issued', id: 'a'.repeat(24) },
    { name: 'a word', id: 'nothing-here' },
  ];
  test.each(notFound)('PUT by _id: $name → 404 id, nothing created', async ({ id }) => {
    const k = await s.newProject('upsert-404');
    await expectCase(s, {
      method: 'PUT', path: `/v1/beacons/${id}`, opts: { key: k.testSk, body: ibeacon() },
      want: { status: 404, param: 'id', type: 'ERROR_NOT_FOUND', message: `No beacon with _id "${id}"` },
    });
    expect((await list(k)).ids).toEqual([]);
  });

  const refused: Array<{ name: string; body: Body; param: string }> = [
    { name: 'description missing', body: ibeacon({ description: undefined }), param: 'description' },
    { name: 'type missing', body: ibeacon({ type: undefined }), param: 'type' },
    { name: 'coordinates missing', body: ibeacon({ coordinates: undefined }), param: 'coordinates' },
    { name: 'uuid malformed', body: ibeacon({ uuid: 'x' }), param: 'uuid' },
    { name: 'metadata of 17 keys', body: ibeacon({ metadata: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, i])) }), param: 'metadata' },
  ];
  test.each(refused)('a refused upsert ($name) changes nothing and creates nothing', async ({ body, param }) => {
    const k = await s.newProject('upsert-refused');
    const before = (await call(s, 'PUT', '/v1/beacons/hall/kept', { key: k.testSk, body: ibeacon({ metadata: { keep: true } }) })).body.beacon;
    for (const path of ['/v1/beacons/hall/kept', `/v1/beacons/${before._id}`, '/v1/beacons/hall/new']) {
      await expectCase(s, { method: 'PUT', path, opts: { key: k.testSk, body }, want: { status: 400, param } });
    }
    expect((await call(s, 'GET', `/v1/beacons/${before._id}`, { key: k.testSk })).body.beacon).toEqual(before);
    expect((await list(k)).ids).toEqual([before._id]);
  });
});

describe('concurrent writes', () => {
  // Many clients at once on one new address: whatever the interleaving, one beacon comes out.
  test.each([
    { form: 'PUT by tag/externalId', send: (k: ProjectKeys, i: number) => s.request('PUT', '/v1/beacons/race/one', { key: k.testSk, body: ibeacon({ description: `d${i}` }) }) },
    { form: 'POST', send: (k: ProjectKeys, i: number) => s.request('POST', '/v1/beacons', { key: k.testSk, body: ibeacon({ tag: 'race', externalId: 'one', description: `d${i}` }) }) },
  ])('$form ×10 at once on one new (tag, externalId) → one beacon', async ({ send }) => {
    const k = await s.newProject('race');
    const replies = await Promise.all(Array.from({ length: 10 }, (_, i) => send(k, i)));
    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(200));
    const got = await list(k);
    expect(got.ids).toHaveLength(1);
    expect(new Set(replies.map((r) => r.body.beacon._id))).toEqual(new Set(got.ids));
  });
});

describe('get and delete', () => {
  let k: ProjectKeys;
  let lobby: Beacon;
  let dock: Beacon;
  beforeAll(async () => {
    k = await s.newProject('get-delete');
    lobby = await create(k, ibeacon());
    dock = await create(k, eddystone());
  });

  const reads: Array<{ name: string; path: () => string; want: Want; beacon?: () => Beacon }> = [
    { name: 'by _id', path: () => `/v1/beacons/${lobby._id}`, want: { status: 200 }, beacon: () => lobby },
    { name: 'by tag/externalId', path: () => '/v1/beacons/store/dock', want: { status: 200 }, beacon: () => dock },
    { name: 'unknown _id', path: () => `/v1/beacons/${'0'.repeat(24)}`, want: { status: 404, param: 'id', type: 'ERROR_NOT_FOUND', message: `No beacon with _id "${'0'.repeat(24)}"` } },
    { name: 'unknown externalId', path: () => '/v1/beacons/store/nope', want: { status: 404, param: 'externalId', message: 'No beacon with tag "store" and externalId "nope"' } },
    { name: 'unknown tag', path: () => '/v1/beacons/other/lobby', want: { status: 404, param: 'externalId', message: 'No beacon with tag "other" and externalId "lobby"' } },
    { name: 'tag and externalId swapped', path: () => '/v1/beacons/lobby/store', want: { status: 404, param: 'externalId' } },
  ];
  test.each(reads)('GET $name → $want.status', async ({ path, want, beacon }) => {
    const reply = await expectCase(s, { method: 'GET', path: path(), opts: { key: k.testSk }, want });
    if (beacon) expect(reply.body).toEqual({ meta: { code: 200 }, beacon: beacon() });
  });

  test('DELETE by _id, then by tag/externalId; each then 404s', async () => {
    const rows: Array<[string, string, string, number]> = [
      ['delete lobby by _id', 'DELETE', `/v1/beacons/${lobby._id}`, 200],
      ['lobby by _id is gone', 'GET', `/v1/beacons/${lobby._id}`, 404],
      ['lobby by tag is gone', 'GET', '/v1/beacons/store/lobby', 404],
      ['dock is still there', 'GET', '/v1/beacons/store/dock', 200],
      ['delete lobby again', 'DELETE', `/v1/beacons/${lobby._id}`, 404],
      ['delete dock by tag/externalId', 'DELETE', '/v1/beacons/store/dock', 200],
      ['dock by _id is gone', 'GET', `/v1/beacons/${dock._id}`, 404],
      ['delete dock again', 'DELETE', '/v1/beacons/store/dock', 404],
    ];
    const got = [];
    for (const [name, method, path] of rows) {
      const reply = await call(s, method, path, { key: k.testSk });
      if (method === 'DELETE' && reply.status === 200) expect(reply.body).toEqual({ meta: { code: 200 } });
      got.push([name, reply.status]);
    }
    expect(got).toEqual(rows.map(([name, , , status]) => [name, status]));
    expect((await list(k)).ids).toEqual([]);
  });
});

describe('list', () => {
  test('empty project: no beacons, hasMore false', async () => {
    const k = await s.newProject('list-empty');
    expect(await list(k)).toEqual({ ids: [], hasMore: false, beacons: [] });
  });

  test('newest first, by createdAt; list items equal the single-object form', async () => {
    const k = await s.newProject('list-order');
    const made = await createSeries(k, 5);
    const got = await list(k);
    expect(got.ids).toEqual(made.map((b) => b._id).reverse());
    expect(got.beacons).toEqual([...made].reverse());
  });

  test('beacons made within one millisecond still come newest first', async () => {
    const k = await s.newProject('list-same-ms');
    const made: Beacon[] = [];
    for (let i = 0; i < 6; i++) made.push(await create(k, ibeacon({ externalId: `quick${i}` })));
    expect((await list(k)).ids).toEqual(made.map((b) => b._id).reverse());
  });

  test('an update does not move a beacon (the order is by createdAt)', async () => {
    const k = await s.newProject('list-update');
    const made = await createSeries(k, 3);
    await call(s, 'PUT', `/v1/beacons/${made[0]._id}`, { key: k.testSk, body: ibeacon({ description: 'touched' }) });
    expect((await list(k)).ids).toEqual(made.map((b) => b._id).reverse());
  });

  test('limit and hasMore', async () => {
    const k = await s.newProject('list-limit');
    const ids = (await createSeries(k, 5)).map((b) => b._id).reverse();
    const rows: Array<[number, string[], boolean]> = [
      [1, ids.slice(0, 1), true],
      [2, ids.slice(0, 2), true],
      [4, ids.slice(0, 4), true],
      [5, ids, false],
      [6, ids, false],
      [1000, ids, false],
    ];
    const got = [];
    for (const [limit] of rows) {
      const r = await list(k, { limit });
      got.push([limit, r.ids, r.hasMore]);
    }
    expect(got).toEqual(rows);
  });

  test('limit defaults to 100', async () => {
    const k = await s.newProject('list-default');
    for (let i = 0; i < 101; i++) await create(k, ibeacon({ externalId: `n${i}` }));
    const r = await list(k);
    expect([r.ids.length, r.hasMore]).toEqual([100, true]);
    expect((await list(k, { limit: 101 })).hasMore).toBe(false);
  });

  const badQueries: Array<{ name: string; query: Record<string, string>; want: Want }> = [
    { name: 'limit 0', query: { limit: '0' }, want: { status: 400, param: 'limit', message: 'limit must be between 1 and 1000' } },
    { name: 'limit 1001', query: { limit: '1001' }, want: { status: 400, param: 'limit', message: 'limit must be between 1 and 1000' } },
    { name: 'limit -1', query: { limit: '-1' }, want: { status: 400, param: 'limit', message: 'limit must be between 1 and 1000' } },
    { name: 'limit 2.5', query: { limit: '2.5' }, want: { status: 400, param: 'limit', message: 'limit must be an integer' } },
    { name: 'limit a word', query: { limit: 'ten' }, want: { status: 400, param: 'limit', message: 'limit must be a number' } },
    { name: 'createdBefore not a date', query: { createdBefore: 'yesterday' }, want: { status: 400, param: 'createdBefore', message: 'createdBefore must be a date or an ISO 8601 datetime' } },
    { name: 'createdAfter impossible day', query: { createdAfter: '2026-02-30' }, want: { status: 400, param: 'createdAfter', message: 'createdAfter must be a date or an ISO 8601 datetime' } },
    { name: 'tag over 256 characters', query: { tag: 't'.repeat(257) }, want: { status: 400, param: 'tag', message: 'tag must be at most 256 characters' } },
  ];
  test.each(badQueries)('$name → 400 $want.param', async ({ query, want }) => {
    await expectCase(s, { method: 'GET', path: '/v1/beacons', opts: { key: s.keys.testSk, query }, want });
  });

  test('a repeated limit is refused, not guessed', async () => {
    await expectCase(s, { method: 'GET', path: '/v1/beacons?limit=1&limit=2', opts: { key: s.keys.testSk }, want: { status: 400, param: 'limit' } });
  });

  test('createdBefore and createdAfter are exclusive cursors', async () => {
    const k = await s.newProject('list-cursors');
    const b = await createSeries(k, 5);
    const id = (i: number) => b[i]._id;
    const rows: Array<[string, Record<string, string>, string[]]> = [
      ['before #2', { createdBefore: b[2].createdAt }, [id(1), id(0)]],
      ['after #2', { createdAfter: b[2].createdAt }, [id(4), id(3)]],
      ['between #1 and #4', { createdAfter: b[1].createdAt, createdBefore: b[4].createdAt }, [id(3), id(2)]],
      ['before the first', { createdBefore: b[0].createdAt }, []],
      ['after the last', { createdAfter: b[4].createdAt }, []],
      ['after a date long ago', { createdAfter: '2000-01-01' }, [4, 3, 2, 1, 0].map(id)],
      ['before a date long ago', { createdBefore: '2000-01-01' }, []],
      ['with an offset', { createdBefore: new Date(Date.parse(b[2].createdAt)).toISOString().replace('Z', '+00:00') }, [id(1), id(0)]],
    ];
    const got = [];
    for (const [name, query] of rows) got.push([name, (await list(k, query)).ids]);
    expect(got).toEqual(rows.map(([name, , ids]) => [name, ids]));
  });

  test('paging with limit and createdBefore walks every beacon once', async () => {
    const k = await s.newProject('list-paging');
    const all = (await createSeries(k, 7)).map((b) => b._id).reverse();
    const seen: string[] = [];
    const pages: boolean[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const r = await list(k, { limit: 3, ...(cursor ? { createdBefore: cursor } : {}) });
      seen.push(...r.ids);
      pages.push(r.hasMore);
      if (!r.hasMore) break;
      cursor = r.beacons[r.beacons.length - 1].createdAt;
    }
    expect(seen).toEqual(all);
    expect(pages).toEqual([true, true, false]);
  });

  test('tag and externalId filters', async () => {
    const k = await s.newProject('list-filters');
    const b = await createSeries(k, 5, (i) => ({ tag: i % 2 === 0 ? 'even' : 'odd', externalId: i < 3 ? `low${i}` : 'high' }));
    const id = (i: number) => b[i]._id;
    const rows: Array<[string, Record<string, string | number>, string[], boolean]> = [
      ['tag even', { tag: 'even' }, [id(4), id(2), id(0)], false],
      ['tag odd', { tag: 'odd' }, [id(3), id(1)], false],
      ['externalId high', { externalId: 'high' }, [id(4), id(3)], false],
      ['tag and externalId', { tag: 'odd', externalId: 'high' }, [id(3)], false],
      ['unknown tag', { tag: 'none' }, [], false],
      ['tag is exact, not a prefix', { tag: 'eve' }, [], false],
      ['tag even, limit 2', { tag: 'even', limit: 2 }, [id(4), id(2)], true],
      ['tag even, created after #1', { tag: 'even', createdAfter: b[1].createdAt }, [id(4), id(2)], false],
    ];
    const got = [];
    for (const [name, query] of rows) {
      const r = await list(k, query);
      got.push([name, r.ids, r.hasMore]);
    }
    expect(got).toEqual(rows.map(([name, , ids, more]) => [name, ids, more]));
  });
});
