// A track update's rows for several webhooks store its user once (outbox-bundle.ts ShareUser), and the
// sweep (delivery-shared-users.ts) removes that document once no pending row points at it, never
// before: real gateway, real track updates, real receivers, on SQLite and (with DATABASE_URL) PostgreSQL.
import { webhooksOf } from '../../server/features/webhooks/webhooks-feature';
import { DATABASE_URL, dropSchemas, freshSchemaName } from '../adapters/store-postgres-support';
import { startTestServer, type TestServer } from '../support/server';
import { announceSkip, envVar } from '../support/requires';
import { fastWebhooks } from './webhooks-config';
import { startReceiver, type TestReceiver } from './webhooks-receiver';
import { until } from '../support/until';
import { OUTBOX } from '../../server/api/collections';
import { SHARED_USERS } from '../../server/features/webhooks/webhook-docs';
import type { Scope } from '../../ports/store';

const CAFE = { lat: 40.7831, lng: -73.9712 };
const AWAY = { lat: 40.77, lng: -73.98 };
if (!DATABASE_URL) announceSkip('shared users of webhook rows: the PostgreSQL half', envVar('DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/test'));
const stores: Array<[string, string | undefined]> = [['sqlite', undefined], ...(DATABASE_URL ? [['postgres', freshSchemaName()] as [string, string]] : [])];

describe.each(stores)('shared users of webhook rows on %s', (_name, schema) => {
  let server: TestServer;
  let good: TestReceiver;
  let failing: TestReceiver;
  const started: TestServer[] = [];
  const schemas: string[] = [];
  /** A gateway on this store kind: a failing request is retried `maxAttempts` times (30-120 ms apart). */
  async function gateway(maxAttempts: number): Promise<TestServer> {
    const own = schema === undefined ? undefined : `${schema}_${schemas.length}`;
    if (own !== undefined) schemas.push(own);
    const pg = own ? { store: 'postgres' as const, databaseUrl: DATABASE_URL, databaseSchema: own } : {};
    const s = await startTestServer({ ...pg, webhooks: fastWebhooks({ maxAttempts, deadPayloadMaxBytes: 1_000_000 }) });
    started.push(s);
    return s;
  }
  beforeAll(async () => {
    good = await startReceiver();
    failing = await startReceiver();
  });
  afterAll(async () => {
    for (const s of started) await s.close();
    await good?.close();
    await failing?.close();
    if (schemas.length > 0) await dropSchemas(schemas);
  });
  beforeEach(() => {
    good.fallback = { status: 200 };
    failing.fallback = { status: 500 };
  });

  async function setup(hooks: Array<{ url: string; mode?: string }>): Promise<{ pk: string; sk: string; scope: Scope; ids: string[] }> {
    const keys = await server.newProject(`p-${Math.random().toString(36).slice(2)}`);
    for (const i of [0, 1]) {
      const r = await server.request('PUT', `/v1/geofences/venue/cafe-${i}`, { key: keys.testSk, body: { description: `Café ${i}`, type: 'circle', coordinates: [CAFE.lng, CAFE.lat], radius: 100 + i } });
      expect(r.status).toBe(200);
    }
    const ids: string[] = [];
    for (const hook of hooks) {
      const r = await server.request('POST', '/v1/webhooks', { key: keys.testSk, body: hook });
      expect(r.status).toBe(200);
      ids.push(r.body.webhook._id);
    }
    return { pk: keys.testPk, sk: keys.testSk, scope: { projectId: keys.id, live: false }, ids };
  }

  async function walkIn(pk: string, deviceId: string): Promise<{ events: Array<{ _id: string }>; user: Record<string, unknown> }> {
    const body = (at: { lat: number; lng: number }): Record<string, unknown> => ({ deviceId, userId: `u-${deviceId}`, latitude: at.lat, longitude: at.lng, accuracy: 5, foreground: true });
    expect((await server.request('POST', '/v1/track', { key: pk, body: body(AWAY) })).status).toBe(200);
    const r = await server.request('POST', '/v1/track', { key: pk, body: body(CAFE) });
    expect(r.status).toBe(200);
    return r.body;
  }

  const store = (): TestServer['running']['gateway']['adapters']['store'] => server.running.gateway.adapters.store;
  const sharedDocs = async (scope: Scope) => (await store().list(SHARED_USERS, scope, { limit: 10, sortBy: 'createdAt' })).docs;
  const rowsOf = async (scope: Scope, webhookId: string) => (await store().list(OUTBOX, scope, { limit: 10, sortBy: 'createdAt', equals: { webhookId } })).docs;
  const sweep = (): Promise<number> => webhooksOf(server.running.gateway.installed)!.sharedUsers.run(new Date());

  test('one update for three webhooks stores its user once; every receiver gets it in place; the sweep waits for the last row', async () => {
    server = await gateway(100_000);
    const { pk, scope, ids } = await setup([
      { url: `${failing.url}/single` },
      { url: `${good.url}/single` },
      { url: `${good.url}/batch`, mode: 'batch' },
    ]);
    const { events, user } = await walkIn(pk, 'd1');
    expect(events).toHaveLength(2);

    // One document, naming the three webhooks; the rows point at it and hold no user of their own.
    const [shared, ...more] = await sharedDocs(scope);
    expect(more).toEqual([]);
    expect(shared.webhookIds).toEqual(ids);
    expect(JSON.parse(shared.userJson!)).toEqual(user);
    const failingRows = await rowsOf(scope, ids[0]);
    expect(failingRows).toHaveLength(1);
    expect(failingRows[0]).toMatchObject({ sharedUser: shared._id, state: 'pending' });
    expect(failingRows[0].userJson).toBeUndefined();
    expect(failingRows[0].parts!.map((p) => p.json.endsWith('"user":null}'))).toEqual([true, true]);

    // The good receiver gets both webhooks' requests, each with the whole user, byte for byte as before.
    await good.waitFor((rs) => rs.filter((r) => r.path === '/single').length === 2 && rs.some((r) => r.path === '/batch'), undefined, 'the good webhooks');
    const got = good.received.filter((r) => r.path === '/single' || r.path === '/batch');
    for (const r of got) {
      expect(r.body).toBe(JSON.stringify(r.json));
      expect(r.json.user).toEqual(user);
    }
    expect(got.filter((r) => r.path === '/single').map((r) => r.json.event._id)).toEqual(events.map((e) => e._id));
    expect(got.find((r) => r.path === '/batch')!.json.events.map((e: { _id: string }) => e._id)).toEqual(events.map((e) => e._id));
    await until('the good webhooks\' rows deleted', async () => (await rowsOf(scope, ids[1])).length === 0 && (await rowsOf(scope, ids[2])).length === 0, 5000, 20);

    // The failing webhook's row still points at it: kept, run after run.
    await failing.waitFor((rs) => rs.length >= 2, undefined, 'a retry');
    await sweep();
    await sweep();
    expect((await sharedDocs(scope)).map((d) => d._id)).toEqual([shared._id]);

    // Its receiver recovers: both requests carry the user, and once the row is gone so is the document.
    failing.fallback = { status: 200 };
    await until('the failing webhook\'s row delivered', async () => (await rowsOf(scope, ids[0])).length === 0, 5000, 20);
    // Every attempt, failed or not, carried the user; the last two are the two parts, in order.
    for (const r of failing.received) expect(r.json.user).toEqual(user);
    expect(failing.received.slice(-2).map((r) => r.json.event._id)).toEqual(events.map((e) => e._id));
    await sweep();
    expect(await sharedDocs(scope)).toEqual([]);
  });

  test('a request that dies takes its user inline, and keeps it after the document went', async () => {
    server = await gateway(2);
    const { pk, sk, scope, ids } = await setup([{ url: `${failing.url}/dies` }, { url: `${good.url}/other` }]);
    const { events, user } = await walkIn(pk, 'd2');
    const [shared] = await sharedDocs(scope);
    expect(shared.webhookIds).toEqual(ids);
    await good.waitFor((rs) => rs.filter((r) => r.path === '/other').length === 2, undefined, 'the good webhook');
    // Each part is given up after two attempts, while the document still exists.
    await until('both parts dead', async () => {
      const dead = (await server.request('GET', `/v1/webhooks/${ids[0]}/dead-letters`, { key: sk })).body.deadLetters as Array<{ payload: { user: unknown; event: { _id: string } } }>;
      return dead.length === 2;
    }, 5000, 20);
    const dead = (await server.request('GET', `/v1/webhooks/${ids[0]}/dead-letters`, { key: sk })).body.deadLetters as Array<{ payload: { user: unknown; event: { _id: string } } }>;
    expect(dead.map((d) => d.payload.event._id)).toEqual(events.map((e) => e._id));
    for (const d of dead) expect(d.payload.user).toEqual(user);
    // The good webhook's outcomes are written in groups (up to 200 ms after its deliveries).
    const pending = async (webhookId: string) => (await store().list(OUTBOX, scope, { limit: 10, sortBy: 'createdAt', equals: { webhookId, state: 'pending' } })).docs;
    await until('no pending row', async () => (await pending(ids[0])).length === 0 && (await pending(ids[1])).length === 0, 5000, 20);
    await sweep();
    expect(await sharedDocs(scope)).toEqual([]);
    // The dead letters still have their user after the document went.
    const again = (await server.request('GET', `/v1/webhooks/${ids[0]}/dead-letters`, { key: sk })).body.deadLetters as Array<{ payload: { user: unknown } }>;
    for (const d of again) expect(d.payload.user).toEqual(user);
  });
});
