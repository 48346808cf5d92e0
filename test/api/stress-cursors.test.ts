// Issue #10 item 9, issue 32 item 4: following the cursor (createdBefore = the last item's createdAt,
// beforeId = its _id) reaches every item once even when many share one timestamp, on SQLite and
// PostgreSQL, and no page is longer than limit. Oldest first (order=asc) the cursor is createdAfter +
// afterId, with the same guarantees.
import { put } from '../../ports/store';
import type { EventDoc } from '../../core/model/event';
import { eachStore } from '../support/each-store';
import { startTestServer, type TestServer } from '../support/server';
import { EVENTS } from '../../server/api/collections';

const stores = eachStore('cursor tests');

describe.each(stores)('date cursors with tied timestamps on %s', (_name, config) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(config());
  });
  afterAll(() => server?.close());

  async function copiesOf(template: EventDoc, count: number, at: (i: number) => string, prefix: string): Promise<void> {
    const scope = { projectId: server.keys.id, live: false };
    const docs = Array.from({ length: count }, (_, i) => ({ ...template, _id: `${prefix}${String(i).padStart(23, '0')}`, createdAt: at(i), updatedAt: at(i) }));
    for (let i = 0; i < docs.length; i += 500) {
      await server.running.gateway.adapters.store.write(docs.slice(i, i + 500).map((doc) => (put(EVENTS, scope, doc))));
    }
  }

  async function followCursor(limit: number, order: 'asc' | 'desc' = 'desc', bounds: Record<string, string> = {}): Promise<string[]> {
    const seen: string[] = [];
    let cursor: Record<string, string> = {};
    for (let page = 0; page < 1000; page++) {
      const query = { limit, ...bounds, ...(order === 'asc' ? { order } : {}), ...cursor };
      const r = await server.request('GET', '/v1/events', { key: server.keys.testSk, query });
      expect(r.status).toBe(200);
      expect(r.body.events.length).toBeLessThanOrEqual(limit);
      seen.push(...r.body.events.map((e: { _id: string }) => e._id));
      if (!r.body.meta.hasMore) return seen;
      const last = r.body.events[r.body.events.length - 1];
      cursor = order === 'asc' ? { createdAfter: last.createdAt, afterId: last._id } : { createdBefore: last.createdAt, beforeId: last._id };
    }
    throw new Error('cursor did not end');
  }

  /** The events' _ids in list order as the store holds them: createdAt, then _id. */
  async function storedOrder(order: 'asc' | 'desc'): Promise<string[]> {
    const scope = { projectId: server.keys.id, live: false };
    const { docs } = await server.running.gateway.adapters.store.list(EVENTS, scope, { limit: 10_000, sortBy: 'createdAt', order });
    return docs.map((d) => d._id);
  }

  test('1,005 conversions with one createdAt, then ties across page boundaries: every one is reached once', async () => {
    const r = await server.request('POST', '/v1/events', { key: server.keys.testPk, body: { type: 'opened_app', userId: 'cursor-user' } });
    expect(r.status).toBe(200);
    const scope = { projectId: server.keys.id, live: false };
    const template = (await server.running.gateway.adapters.store.list(EVENTS, scope, { limit: 1, sortBy: 'createdAt' })).docs[0];
    await copiesOf(template, 1005, () => '2026-01-01T00:00:00.000Z', 'a');
    // Groups of 7 sharing a millisecond: with pages of 100, most boundaries fall inside a group.
    await copiesOf(template, 700, (i) => new Date(Date.UTC(2025, 11, 1) + Math.floor(i / 7)).toISOString(), 'b');
    const seen = await followCursor(100);
    expect(seen.length).toBe(1 + 1005 + 700);
    expect(new Set(seen).size).toBe(seen.length);
  });

  test('oldest first: createdAfter + afterId reach every item once, in order, through the same ties, pages never past limit', async () => {
    // Runs after the test above: 1 + 1,005 tied + 700 in groups of 7 are stored.
    const expected = await storedOrder('asc');
    expect(expected.length).toBe(1706);
    for (const limit of [100, 9, 1000]) {
      const seen = await followCursor(limit, 'asc');
      expect(seen).toEqual(expected);
    }
    // Newest first the same items come back in the reverse order.
    expect(await followCursor(100)).toEqual([...expected].reverse());
  });

  test('oldest first inside bounds: createdBefore caps the list, the tie at the cap is left out', async () => {
    const expected = (await storedOrder('asc')).slice(0, 700); // the groups of 7 of 2025-12-01, before the big tie
    const seen = await followCursor(50, 'asc', { createdBefore: '2026-01-01T00:00:00.000Z' });
    expect(seen).toEqual(expected);
  });

  test('cursor halves that do not belong together are a 400 naming the parameter', async () => {
    const at = '2026-01-01T00:00:00.000Z';
    const id = 'a'.repeat(24);
    const cases: Array<[Record<string, string>, string]> = [
      [{ afterId: id, createdAfter: at }, 'afterId'], // afterId without order=asc
      [{ order: 'asc', afterId: id }, 'afterId'], // without its timestamp
      [{ order: 'asc', beforeId: id, createdBefore: at }, 'beforeId'], // the newest-first cursor oldest first
      [{ order: 'sideways' }, 'order'],
    ];
    for (const [query, param] of cases) {
      const r = await server.request('GET', '/v1/events', { key: server.keys.testSk, query });
      expect([query, r.status, r.body.meta.param]).toEqual([query, 400, param]);
      expect(typeof r.body.meta.message).toBe('string');
    }
    for (const path of ['/v1/users', '/v1/geofences', '/v1/beacons', '/v1/trips']) {
      const field = path === '/v1/beacons' ? 'createdAfter' : 'updatedAfter';
      const r = await server.request('GET', path, { key: server.keys.testSk, query: { order: 'asc', afterId: id } });
      expect([path, r.status, r.body.meta.param]).toEqual([path, 400, 'afterId']);
      const ok = await server.request('GET', path, { key: server.keys.testSk, query: { order: 'asc', [field]: at, afterId: id, limit: '5' } });
      expect([path, ok.status]).toEqual([path, 200]);
    }
  });
});
