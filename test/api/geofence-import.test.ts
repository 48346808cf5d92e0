// POST /v1/geofences/import against a real server: a good file (raw text/csv and multipart), a bad file
// that writes nothing and lists every problem, upserts that keep _id and createdAt, imported geofences
// firing events on track, environments kept apart, and the route's own size limit beside the small
// global JSON limit.
import zlib from 'node:zlib';
import { configFromEnv } from '../../server/config';
import { startTestServer, type TestServer } from '../support/server';

const HEADER = 'description,type,tag,externalId,coordinates,radius,metadata.brand';
const CAFE = { lat: 40.7831, lng: -73.9712 };

function csv(...rows: string[]): string {
  return [HEADER, ...rows].join('\n') + '\n';
}

const GOOD = csv(
  `Café,circle,store,cafe,"[${CAFE.lng},${CAFE.lat}]",100,acme`,
  'Depot,polygon,depot,d1,"[[-73.99,40.70],[-73.98,40.70],[-73.98,40.71],[-73.99,40.71],[-73.99,40.70]]",,',
);

let server: TestServer;

beforeAll(async () => {
  // A small global limit and a larger import limit: one test sends the same size to both.
  const geofenceImport = { ...configFromEnv({}).geofenceImport, uploadMaxBytes: 3 * 1024 * 1024, maxRows: 3500 };
  server = await startTestServer({ geofenceImport, bodyLimit: '100kb' });
});
afterAll(async () => {
  await server.close();
});

// Responses are JSON documents whose shape each test asserts, as in the server harness.
async function json(res: Response): Promise<any> {
  return res.json();
}

function upload(key: string, text: string, contentType = 'text/csv') {
  return server.request('POST', '/v1/geofences/import', { key, raw: { contentType, text } });
}

async function listAll(key: string, tag?: string): Promise<Array<Record<string, any>>> {
  const r = await server.request('GET', '/v1/geofences', { key, query: { limit: 1000, ...(tag ? { tag } : {}) } });
  expect(r.status).toBe(200);
  return r.body.geofences;
}

describe('a valid file', () => {
  test('is imported into the key\'s environment and answers counts', async () => {
    const r = await upload(server.keys.testSk, GOOD);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      meta: { code: 200 },
      import: { environment: 'test', ok: true, dataRows: 2, imported: 2, created: 2, updated: 0, errors: [], errorCount: 0 },
    });
    const stored = await listAll(server.keys.testSk, 'store');
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ tag: 'store', externalId: 'cafe', description: 'Café', type: 'circle', geometryRadius: 100, metadata: { brand: 'acme' }, live: false, enabled: true });
    expect(stored[0]._id).toMatch(/^[0-9a-f]{24}$/);
    expect(stored[0].createdAt).toMatch(/\.\d{3}Z$/);
    // The live environment saw nothing.
    expect(await listAll(server.keys.liveSk)).toEqual([]);
  });

  test('imported geofences fire events on the next track (the in-memory index is updated)', async () => {
    const r = await server.request('POST', '/v1/track', {
      key: server.keys.testPk,
      body: { deviceId: 'imp-1', userId: 'imp-user-1', latitude: CAFE.lat, longitude: CAFE.lng, accuracy: 5, foreground: true },
    });
    expect(r.status).toBe(200);
    expect(r.body.events.map((e: { type: string; geofence?: { externalId: string } }) => [e.type, e.geofence?.externalId])).toEqual([
      ['user.entered_geofence', 'cafe'],
    ]);
  });

  test('re-importing upserts by (tag, externalId): same _id and createdAt, new fields and updatedAt', async () => {
    const before = (await listAll(server.keys.testSk, 'store'))[0];
    await new Promise((resolve) => setTimeout(resolve, 5));
    const r = await upload(server.keys.testSk, csv(`Café (moved),circle,store,cafe,"[${CAFE.lng},${CAFE.lat}]",250,other`, `New,circle,store,new1,"[0,0]",50,`));
    expect(r.body.import).toMatchObject({ ok: true, imported: 2, created: 1, updated: 1 });
    const after = await listAll(server.keys.testSk, 'store');
    expect(after).toHaveLength(2);
    const cafe = after.find((g) => g.externalId === 'cafe');
    expect(cafe).toMatchObject({ _id: before._id, createdAt: before.createdAt, description: 'Café (moved)', geometryRadius: 250, metadata: { brand: 'other' } });
    expect(cafe?.updatedAt > before.updatedAt).toBe(true);
    // The visit of the track test goes on: the geofence is the same one, so no second entry.
    const t = await server.request('POST', '/v1/track', {
      key: server.keys.testPk,
      body: { deviceId: 'imp-1', userId: 'imp-user-1', latitude: CAFE.lat, longitude: CAFE.lng, accuracy: 5, foreground: true },
    });
    expect(t.body.events).toEqual([]);
    expect(t.body.user.geofences.map((g: { _id: string }) => g._id)).toEqual([before._id]);
  });

  test('multipart/form-data with a file field named "file"', async () => {
    const form = new FormData();
    form.append('note', 'ignored');
    form.append('file', new Blob([csv('Form,circle,form,f1,"[2,2]",30,')], { type: 'text/csv' }), 'geofences.csv');
    const res = await fetch(`${server.url}/v1/geofences/import`, { method: 'POST', headers: { authorization: server.keys.testSk }, body: form });
    const body = await json(res);
    expect({ status: res.status, import: body.import }).toMatchObject({ status: 200, import: { ok: true, created: 1 } });
    expect((await listAll(server.keys.testSk, 'form')).map((g) => g.externalId)).toEqual(['f1']);
  });

  test('the live secret key imports into live', async () => {
    const r = await upload(server.keys.liveSk, csv('Live one,circle,live,l1,"[3,3]",40,'));
    expect(r.body.import).toMatchObject({ environment: 'live', ok: true, created: 1 });
    expect((await listAll(server.keys.liveSk)).map((g) => [g.externalId, g.live])).toEqual([['l1', true]]);
    expect(await listAll(server.keys.testSk, 'live')).toEqual([]);
  });

  test('a few thousand rows (existing geofences found by one scan) keep their ids on re-import', async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => `Bulk ${i},circle,bulk,b${i},"[${(i % 300) / 10},${Math.floor(i / 300) / 10}]",${20 + (i % 50)},`);
    const first = await upload(server.keys.testSk, csv(...rows));
    expect(first.body.import).toMatchObject({ ok: true, created: 3000, updated: 0 });
    const ids = new Map((await listAll(server.keys.testSk, 'bulk')).map((g) => [g.externalId, g._id]));
    const second = await upload(server.keys.testSk, csv(...rows.map((r) => r.replace('Bulk', 'Bulk v2'))));
    expect(second.body.import).toMatchObject({ ok: true, created: 0, updated: 3000 });
    const again = await listAll(server.keys.testSk, 'bulk');
    expect(again.filter((g) => ids.get(g.externalId) !== g._id)).toEqual([]);
    expect(again.every((g) => g.description.startsWith('Bulk v2'))).toBe(true);
  });
});

describe('a file with problems', () => {
  const BAD = [
    'description,type,tag,externalId,coordinates,radius,metadata.brand,operatingHours.Mon,colour',
    'Main St store,circle,bad,101,"[-73.98706,40.7041029]",100,acme,"[[""8:00 am"",""8:30 pm""]]",',
    'Harbour,circle,bad,102,"[-73.99,40.70]",5,acme,"[[""9:00"",""25:00""]]",',
    'Again,circle,bad,101,"[-73.98,40.70]",100,,,',
    'Depot,polygon,bad,d1,"[[0,0],[1,0],[1,1],[0,1]]",,,,',
    'By address,circle,bad,a1,,100,,,',
  ].join('\n');

  test('writes nothing and answers 400 with every problem: row, column, message', async () => {
    const before = await listAll(server.keys.testSk);
    const r = await upload(server.keys.testSk, BAD);
    expect(r.status).toBe(400);
    expect(r.body.meta).toEqual({ code: 400, param: 'file', message: 'The file has 6 problems; nothing was imported' });
    expect(r.body.import).toMatchObject({ environment: 'test', ok: false, dataRows: 5, imported: 0, created: 0, updated: 0, errorCount: 6 });
    expect(r.body.import.errors.map((e: { row: number; column: string }) => [e.row, e.column])).toEqual([
      [1, 'colour'],
      [3, 'operatingHours.Mon'],
      [3, 'radius'],
      [4, 'externalId'],
      [5, 'coordinates'],
      [6, 'coordinates'],
    ]);
    expect(r.body.import.errors[2].message).toBe('radius must be between 10 and 10000');
    expect(r.body.import.errors[3].message).toBe('rows 2 and 4 both have tag "bad" and externalId "101"; each pair may appear only once in a file');
    // Row 2 alone was valid: still not written.
    expect(await listAll(server.keys.testSk, 'bad')).toEqual([]);
    expect((await listAll(server.keys.testSk)).length).toBe(before.length);
  });

  test('rows that need a geocoder, place data or a router are refused with a clear message each', async () => {
    const r = await upload(server.keys.testSk, [
      'description,type,tag,externalId,coordinates,address,placeId,radius,mode',
      'By address,circle,needs,a1,,"20 Jay St, Brooklyn",,100,',
      'By place,circle,needs,p1,,,place-123,100,',
      'Drive time,isochrone,needs,i1,"[-73.98,40.70]",,,10,car',
    ].join('\n'));
    expect(r.status).toBe(400);
    expect(r.body.import.errors.map((e: { row: number; message: string }) => [e.row, e.message.split(';')[0]])).toEqual([
      // Geocoded since the geocoding feature: only the town is known here, which is no centre.
      [2, expect.stringMatching(/^address "20 Jay St, Brooklyn" was not found/)],
      [3, expect.stringMatching(/^placeId "[^"]+" is not a known place/)],
      // No network is imported here: the router reaches nothing from the destination.
      [4, expect.stringMatching(/^no car road network reaches \(40\.7,-73\.98\) to compute the isochrone/)],
    ]);
    expect(await listAll(server.keys.testSk, 'needs')).toEqual([]);
  });

  test('a bad row among updates leaves existing geofences untouched', async () => {
    const before = (await listAll(server.keys.testSk, 'store')).find((g) => g.externalId === 'cafe');
    const r = await upload(server.keys.testSk, csv(`Renamed,circle,store,cafe,"[${CAFE.lng},${CAFE.lat}]",100,`, 'Broken,circle,store,x,"[0,0]",,'));
    expect(r.status).toBe(400);
    expect(r.body.import.errors).toEqual([{ row: 3, column: 'radius', message: 'radius is required for circle geofences (meters, 10 to 10000)' }]);
    const after = (await listAll(server.keys.testSk, 'store')).find((g) => g.externalId === 'cafe');
    expect(after).toEqual(before);
  });
});

describe('request rules', () => {
  test.each([
    ['publishable key → 403', () => server.keys.testPk, 'text/csv', 403],
    ['no key → 401', () => '', 'text/csv', 401],
    ['JSON body → 415', () => server.keys.testSk, 'application/json', 415],
    ['form-encoded body → 415', () => server.keys.testSk, 'application/x-www-form-urlencoded', 415],
    ['image → 415', () => server.keys.testSk, 'image/png', 415],
  ])('%s', async (_name, key, contentType, status) => {
    const res = await fetch(`${server.url}/v1/geofences/import`, {
      method: 'POST',
      headers: { ...(key() ? { authorization: key() } : {}), ...(contentType ? { 'content-type': contentType } : {}) },
      body: contentType === 'application/json' ? JSON.stringify({ csv: GOOD }) : GOOD,
    });
    const body = await json(res);
    expect(res.status).toBe(status);
    expect(body.meta.code).toBe(status);
  });

  test.each([
    ['gzip', (b: Buffer) => zlib.gzipSync(b)],
    ['deflate', (b: Buffer) => zlib.deflateSync(b)],
  ])('a %s-compressed body is inflated', async (encoding, compress) => {
    const res = await fetch(`${server.url}/v1/geofences/import`, {
      method: 'POST',
      headers: { authorization: server.keys.testSk, 'content-type': 'text/csv', 'content-encoding': encoding },
      body: compress(Buffer.from(csv(`Packed,circle,packed,${encoding},"[7,7]",30,`))),
    });
    expect({ status: res.status, import: (await json(res)).import }).toMatchObject({ status: 200, import: { ok: true, created: 1 } });
  });

  test.each([
    // 40 MB of one repeated row: tiny when compressed, past the 3 MB limit once inflated.
    ['a compressed file that inflates past the limit → 413', () => zlib.gzipSync(Buffer.from(HEADER + '\n' + 'Bomb,circle,bomb,b,"[1,1]",20,\n'.repeat(1_300_000))), 'gzip', 413],
    ['a body that is not gzip → 400', () => Buffer.from(GOOD), 'gzip', 400],
    ['an unsupported encoding → 415', () => Buffer.from(GOOD), 'br', 415],
  ])('%s', async (_name, body, encoding, status) => {
    const res = await fetch(`${server.url}/v1/geofences/import`, {
      method: 'POST', headers: { authorization: server.keys.testSk, 'content-type': 'text/csv', 'content-encoding': encoding }, body: body(),
    });
    expect((await json(res)).meta).toMatchObject({ code: status, param: 'body' });
    expect(await listAll(server.keys.testSk, 'bomb')).toEqual([]);
  });

  test('multipart without a "file" field → 400 naming the field', async () => {
    const form = new FormData();
    form.append('upload', new Blob([GOOD], { type: 'text/csv' }), 'g.csv');
    const res = await fetch(`${server.url}/v1/geofences/import`, { method: 'POST', headers: { authorization: server.keys.testSk }, body: form });
    expect(res.status).toBe(400);
    expect((await json(res)).meta).toMatchObject({ param: 'file', message: 'multipart body needs the CSV in a file field named "file"' });
  });

  test('the import route takes files past the global body limit, which still holds for JSON', async () => {
    const rows = Array.from({ length: 2500 }, (_, i) => `Large ${i} ${'x'.repeat(40)},circle,large,l${i},"[${i / 100},1]",20,`);
    const text = csv(...rows);
    expect(text.length).toBeGreaterThan(200 * 1024);
    const imported = await upload(server.keys.testSk, text);
    expect(imported.body.import).toMatchObject({ ok: true, created: 2500 });
    const json = await server.request('PUT', '/v1/geofences/large/json', {
      key: server.keys.testSk, body: { description: 'x'.repeat(200 * 1024), type: 'circle', coordinates: [0, 0], radius: 10 },
    });
    expect(json.status).toBe(413);
  });

  test('a file with more rows than WAYMARK_IMPORT_MAX_ROWS is refused before parsing, nothing written', async () => {
    const rows = Array.from({ length: 3501 }, (_, i) => `Many ${i},circle,many,m${i},"[1,1]",20,`);
    const r = await upload(server.keys.testSk, csv(...rows));
    expect(r.status).toBe(400);
    expect(r.body.import).toMatchObject({ ok: false, dataRows: 3501, errorCount: 1 });
    expect(r.body.import.errors).toEqual([{
      row: 1, column: '', message: 'the file has 3501 lines after the header; one import takes at most 3500 rows (WAYMARK_IMPORT_MAX_ROWS): split it into several files',
    }]);
    expect(await listAll(server.keys.testSk, 'many')).toEqual([]);
  });

  test.each([
    ['raw', 'text/csv'],
    ['multipart', 'multipart'],
  ])('a %s file over the import limit → 413, nothing written', async (_name, kind) => {
    const big = csv(...Array.from({ length: 40_000 }, (_, i) => `Too big ${i} ${'y'.repeat(40)},circle,big,g${i},"[1,1]",20,`));
    expect(big.length).toBeGreaterThan(3 * 1024 * 1024);
    let res: Response;
    if (kind === 'multipart') {
      const form = new FormData();
      form.append('file', new Blob([big], { type: 'text/csv' }), 'big.csv');
      res = await fetch(`${server.url}/v1/geofences/import`, { method: 'POST', headers: { authorization: server.keys.testSk }, body: form });
    } else {
      res = await fetch(`${server.url}/v1/geofences/import`, { method: 'POST', headers: { authorization: server.keys.testSk, 'content-type': 'text/csv' }, body: big });
    }
    expect(res.status).toBe(413);
    expect((await json(res)).meta).toMatchObject({ code: 413, param: 'body' });
    expect(await listAll(server.keys.testSk, 'big')).toEqual([]);
  });
});
