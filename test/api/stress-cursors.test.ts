// Issue #10 item 9, issue 32 item 4: following the cursor (createdBefore = the last item's createdAt,
// beforeId = its _id) reaches every item once even when many share one timestamp, on SQLite and
// PostgreSQL, and no page is longer than limit.
import type { Doc } from '../../adapters/store/port';
import { eachStore } from '../support/each-store';
import { startTestServer, type TestServer } from '../support/server';

const stores = eachStore('cursor tests');

describe.each(stores)('date cursors with tied timestamps on %s', (_name, config) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(config());
  });
  afterAll(() => server?.close());

  async function copiesOf(template: Doc, count: number, at: (i: number) => string, prefix: string): Promise<void> {
    const scope = { projectId: server.keys.id, live: false };
    const docs = Array.from({ length: count }, (_, i) => ({ ...template, _id: `${prefix}${String(i).padStart(23, '0')}`, createdAt: at(i), updatedAt: at(i) }));
    for (let i = 0; i < docs.length; i += 500) {
      await server.running.services.store.write(docs.slice(i, i + 500).map((doc) => ({ op: 'put' as const, collection: 'events', scope, doc })));
    }
  }

  async function followCursor(limit: number): Promise<string[]> {
    const seen: string[] = [];
    let cursor: Record<string, string> = {};
    for (let page = 0; page < 100; page++) {
      const r = await server.request('GET', '/v1/events', { key: server.keys.testSk, query: { limit, ...cursor } });
      expect(r.status).toBe(200);
      expect(r.body.events.length).toBeLessThanOrEqual(limit);
      seen.push(...r.body.events.map((e: { _id: string }) => e._id));
      if (!r.body.meta.hasMore) return seen;
      const last = r.body.events[r.body.events.length - 1];
      cursor = { createdBefore: last.createdAt, beforeId: last._id };
    }
    throw new Error('cursor did not end');
  }

  test('1,005 conversions with one createdAt, then ties across page boundaries: every one is reached once', async () => {
    const r = await server.request('POST', '/v1/events', { key: server.keys.testPk, body: { type: 'opened_app', userId: 'cursor-user' } });
    expect(r.status).toBe(200);
    const scope = { projectId: server.keys.id, live: false };
    const template = (await server.running.services.store.list('events', scope, { limit: 1, sortBy: 'createdAt' })).docs[0];
    await copiesOf(template, 1005, () => '2026-01-01T00:00:00.000Z', 'a');
    // Groups of 7 sharing a millisecond: with pages of 100, most boundaries fall inside a group.
    await copiesOf(template, 700, (i) => new Date(Date.UTC(2025, 11, 1) + Math.floor(i / 7)).toISOString(), 'b');
    const seen = await followCursor(100);
    expect(seen.length).toBe(1 + 1005 + 700);
    expect(new Set(seen).size).toBe(seen.length);
  });
});
