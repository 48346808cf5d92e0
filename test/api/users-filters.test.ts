// GET /v1/users with our filters (issue 33): search, onTrip, inside, geofenceId and fraud reach users past
// the first page of 100, a scan is bounded by scanLimit and says where it stopped (meta.next), and bad
// filter values are 400s naming the parameter. On SQLite and PostgreSQL, through real HTTP. (onTrip=true,
// inside=true and geofenceId are exact, from trips and presence rows: users-linked.test.ts.)
import { put } from '../../ports/store';
import type { UserDoc } from '../../core/model/user';
import { FLAGGED_USERS, PRESENCE, TRIPS, USERS } from '../../server/api/collections';
import { eachStore } from '../support/each-store';
import { startTestServer, type TestServer } from '../support/server';

const stores = eachStore('users filter tests');
const GEOFENCE_ID = 'fe'.repeat(12);
const COUNT = 300;
const START = Date.parse('2026-01-01T00:00:00.000Z');
const at = (i: number) => new Date(START - i * 60_000).toISOString();
const CLEAN = {
  verified: false, passed: true, bypassed: false, blocked: false, mocked: false, jumped: false, compromised: false, inaccurate: false, proxy: false, sharing: false,
  lastMockedAt: null, lastJumpedAt: null, lastCompromisedAt: null, lastInaccurateAt: null, lastProxyAt: null, lastSharingAt: null,
};

describe.each(stores)('GET /v1/users filters on %s', (_name, config) => {
  let server: TestServer;
  const idOf = new Map<string, string>();

  // 300 users a minute apart, bulk-000 the newest; the special ones are among the oldest 50, far past
  // the first page.
  beforeAll(async () => {
    server = await startTestServer(config());
    const r = await server.request('POST', '/v1/track', { key: server.keys.testPk, body: { deviceId: 'template', latitude: 39.29, longitude: -76.61, accuracy: 10 } });
    expect(r.status).toBe(200);
    const scope = { projectId: server.keys.id, live: false };
    const store = server.running.gateway.adapters.store;
    const template = (await store.findOne(USERS, scope, { deviceId: 'template' }))!;
    const { _rev, ...base } = template;
    const docs: UserDoc[] = Array.from({ length: COUNT }, (_, i) => {
      const name = `bulk-${String(i).padStart(3, '0')}`;
      const doc: UserDoc = { ...base, _id: `b${String(i).padStart(23, '0')}`, userId: name, deviceId: `device-${name}`, createdAt: at(i), updatedAt: at(i), actualUpdatedAt: at(i), geofences: [] };
      delete doc.trip; delete doc.fraud; delete doc.description;
      return doc;
    });
    const special = (i: number, userId: string, extra: Partial<UserDoc>) => { Object.assign(docs[i], { userId, deviceId: `device-${userId}` }, extra); };
    special(260, 'Needle-Trip', { trip: { _id: 'ab'.repeat(12), externalId: 'order-1', status: 'started', live: false, createdAt: at(260), updatedAt: at(260) } as UserDoc['trip'] });
    special(270, 'needle-inside', { geofences: [{ _id: GEOFENCE_ID, tag: 'store', externalId: 's1', description: 'Store 1', type: 'circle', geometryCenter: { type: 'Point', coordinates: [-76.61, 39.29] }, geometryRadius: 100 } as UserDoc['geofences'][number]] });
    special(280, 'needle-fraud', { fraud: { ...CLEAN, mocked: true, passed: false, lastMockedAt: at(280) } });
    special(290, 'needle-described', { description: 'Warehouse Night Shift' });
    // The links a track update or the trips API writes beside the user: its trip, its presence row.
    await store.write([
      ...docs.map((d) => put(USERS, scope, d)),
      put(TRIPS, scope, { _id: 'ab'.repeat(12), live: false, externalId: 'order-1', status: 'started', mode: 'car', createdAt: at(260), updatedAt: at(260), _trail: [], _delayed: false, userRef: docs[260]._id }),
      put(PRESENCE, scope, { _id: `${docs[270]._id}:${GEOFENCE_ID}`, createdAt: at(270), updatedAt: at(270), geofenceId: GEOFENCE_ID, userRef: docs[270]._id }),
      put(FLAGGED_USERS, scope, { _id: docs[280]._id, createdAt: at(280), updatedAt: at(280), userRef: docs[280]._id }),
    ]);
    for (const d of docs) idOf.set(d.userId!, d._id);
  });
  afterAll(() => server?.close());

  const list = (query: Record<string, string | number>) => server.request('GET', '/v1/users', { key: server.keys.testSk, query });
  const names = (body: { users: Array<{ userId?: string; deviceId: string }> }) => body.users.map((u) => u.userId ?? u.deviceId);

  test('the special users are not on the first page of the plain list', async () => {
    const r = await list({ limit: 100 });
    expect(r.status).toBe(200);
    expect(names(r.body).filter((n) => n.toLowerCase().startsWith('needle'))).toEqual([]);
  });

  test.each([
    ['onTrip=true', { onTrip: 'true' }, ['Needle-Trip']],
    ['inside=true', { inside: 'true' }, ['needle-inside']],
    ['geofenceId', { geofenceId: GEOFENCE_ID }, ['needle-inside']],
    ['fraud=true', { fraud: 'true' }, ['needle-fraud']],
    ['search by a userId prefix, any case', { search: 'NEEDLE-' }, ['Needle-Trip', 'needle-inside', 'needle-fraud', 'needle-described']],
    ['search by a deviceId prefix', { search: 'device-needle-f' }, ['needle-fraud']],
    ['search by part of the description', { search: 'night shift' }, ['needle-described']],
    ['search and a filter together', { search: 'needle', fraud: 'true' }, ['needle-fraud']],
    ['a filter oldest first', { onTrip: 'true', order: 'asc' }, ['Needle-Trip']],
  ])('%s finds a user past the first page', async (_label, query, want) => {
    const r = await list({ ...query, limit: 100 });
    expect(r.status).toBe(200);
    expect(names(r.body)).toEqual(want);
    const linked = 'onTrip' in query || 'inside' in query || 'geofenceId' in query || 'fraud' in query;
    expect(r.body.meta).toMatchObject(linked ? { hasMore: false, exact: true, total: 1 } : { hasMore: false, scanStopped: false, scanned: COUNT + 1 });
  });

  test('search by an _id prefix', async () => {
    const r = await list({ search: idOf.get('needle-fraud')!.slice(0, 24) });
    expect(names(r.body)).toEqual(['needle-fraud']);
  });

  test('a filter with false keeps the others', async () => {
    const r = await list({ onTrip: 'false', limit: 1000 });
    expect(r.body.users.length).toBe(COUNT);
    expect(names(r.body)).not.toContain('Needle-Trip');
  });

  test('the filters combine with updatedAfter: the trip user is older than the bound', async () => {
    const r = await list({ onTrip: 'true', updatedAfter: '2025-12-31T22:00:00Z' });
    expect(r.status).toBe(200);
    expect(r.body.users).toEqual([]);
    expect(r.body.meta.hasMore).toBe(false);
  });

  test('limit pages the matches and meta.next continues after the last one', async () => {
    const first = await list({ search: 'NEEDLE', limit: 2 });
    expect(names(first.body)).toEqual(['Needle-Trip', 'needle-inside']);
    expect(first.body.meta.hasMore).toBe(true);
    const second = await list({ search: 'NEEDLE', limit: 2, ...first.body.meta.next });
    expect(names(second.body)).toEqual(['needle-fraud', 'needle-described']);
  });

  test('a userId prefix as typed is found through its index past the scan window, in key order, first', async () => {
    const r = await list({ search: 'bulk-29', scanLimit: 100 });
    expect(names(r.body)).toEqual(['bulk-291', 'bulk-292', 'bulk-293', 'bulk-294', 'bulk-295', 'bulk-296', 'bulk-297', 'bulk-298', 'bulk-299']);
    expect(r.body.meta).toMatchObject({ scanned: 100, scanStopped: true, hasMore: true });
    // bulk-290 is needle-described now: its description does not say bulk.
    const device = await list({ search: 'device-bulk-28', scanLimit: 100 });
    expect(names(device.body)).toContain('bulk-289');
  });

  test('when the indexed matches fill the page, meta.next starts the scan, which may list them again', async () => {
    const first = await list({ search: 'bulk-1', limit: 3 });
    expect(names(first.body)).toEqual(['bulk-100', 'bulk-101', 'bulk-102']);
    expect(first.body.meta).toMatchObject({ hasMore: true, scanned: 0 });
    const second = await list({ search: 'bulk-1', limit: 3, ...first.body.meta.next });
    expect(names(second.body)).toEqual(['bulk-100', 'bulk-101', 'bulk-102']);
    expect(second.body.meta.scanned).toBeGreaterThan(0);
  });

  test('a scan stops at scanLimit, says so, and meta.next walks to the match', async () => {
    const seen: string[] = [];
    let cursor: Record<string, string> = {};
    let requests = 0;
    for (;;) {
      const r = await list({ search: 'warehouse', scanLimit: 100, ...cursor });
      expect(r.status).toBe(200);
      requests++;
      expect(r.body.meta.scanned).toBeLessThanOrEqual(100);
      seen.push(...names(r.body));
      if (!r.body.meta.hasMore) break;
      expect(r.body.meta.next).toBeDefined();
      if (r.body.users.length === 0) expect(r.body.meta.scanStopped).toBe(true);
      cursor = r.body.meta.next;
    }
    expect(seen).toEqual(['needle-described']);
    expect(requests).toBe(4); // 301 users, 100 examined a request
  });

  test('an exact userId is found through its index even past the scan window', async () => {
    const r = await list({ search: 'bulk-299', scanLimit: 100 });
    expect(names(r.body)[0]).toBe('bulk-299');
    expect(r.body.meta.scanStopped).toBe(true);
  });

  test.each([
    ['onTrip', { onTrip: 'maybe' }],
    ['inside', { inside: 'sometimes' }],
    ['fraud', { fraud: '2' }],
    ['search', { search: 'x'.repeat(257) }],
    ['search', { search: 'bulk\u0000' }],
    ['geofenceId', { geofenceId: 'g'.repeat(65) }],
    ['geofenceId', { geofenceId: 'a\u0001b' }],
    ['scanLimit', { scanLimit: 1_000_000 }],
    ['scanLimit', { scanLimit: 10 }],
    ['beforeId', { search: 'a', beforeId: 'b'.repeat(24) }],
  ])('bad %s is a 400 naming it', async (param, query) => {
    const r = await list(query);
    expect(r.status).toBe(400);
    expect(r.body.meta.param).toBe(param);
    expect(r.body.meta.message).toMatch(new RegExp(param));
  });
});
