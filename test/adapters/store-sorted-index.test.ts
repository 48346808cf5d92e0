// #10.3: a webhook's queue head and a type's newest events are read from an index that carries their
// order, on both stores: the plan shows that index and no sort, however many rows are pending. (Plans,
// not timings: the shape is what makes the head O(log n).)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { put, type ListQuery, type Store, type WriteOp } from '../../ports/store';
import { PostgresStore } from '../../adapters/store/postgres/postgres-store';
import { SqliteStore } from '../../adapters/store/sqlite/sqlite-store';
import { CORE_COLLECTIONS } from '../../server/api/collections';
import { DATABASE_URL, dropSchemas, freshSchemaName, withClient } from './store-postgres-support';
import { announceSkip, envVar } from '../support/requires';
import { named } from '../support/named-collection';

const scope = { projectId: 'p1', live: true };
const ROWS = 3000;
const HEAD: ListQuery = { equals: { webhookId: 'wh-a', state: 'pending' }, sortBy: 'createdAt', order: 'asc', limit: 1 };
const BY_TYPE: ListQuery = { equals: { type: 'user.entered_geofence' }, sortBy: 'createdAt', limit: 100 };

type Explaining = Store & { explainList(c: string, s: typeof scope, q: ListQuery): string | Promise<string> };

function rows(): WriteOp[] {
  const ops: WriteOp[] = [];
  for (let i = 0; i < ROWS; i++) {
    const t = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
    const id = i.toString(16).padStart(24, '0');
    ops.push(put(named('outbox'), scope, { _id: id, createdAt: t, updatedAt: t, webhookId: i % 3 === 0 ? 'wh-b' : 'wh-a', state: i % 10 === 0 ? 'dead' : 'pending' }));
    ops.push(put(named('events'), scope, { _id: id, createdAt: t, updatedAt: t, type: i % 2 ? 'user.entered_geofence' : 'user.exited_geofence', userRef: `u${i % 50}` }));
  }
  return ops;
}

async function check(store: Explaining, sortNode: RegExp, analyze: () => Promise<void>, names: { head: RegExp; type: RegExp }): Promise<void> {
  await store.define(CORE_COLLECTIONS.outbox);
  await store.define(CORE_COLLECTIONS.events);
  await store.write(rows());
  await analyze();
  const head = await store.list(named('outbox'), scope, HEAD);
  expect(head.docs.map((d) => d._id)).toEqual([(1).toString(16).padStart(24, '0')]);
  const headPlan = await store.explainList('outbox', scope, HEAD);
  expect(headPlan).toMatch(names.head);
  expect(headPlan).not.toMatch(sortNode);
  const typePlan = await store.explainList('events', scope, BY_TYPE);
  expect(typePlan).toMatch(names.type);
  expect(typePlan).not.toMatch(sortNode);
  const newest = await store.list(named('events'), scope, BY_TYPE);
  expect(newest.docs[0]._id).toBe((ROWS - 1).toString(16).padStart(24, '0'));
  expect(newest.hasMore).toBe(true);
  // Several types cannot come from one ordered range: they are still answered, merged by a sort.
  const both = await store.list(named('events'), scope, { ...BY_TYPE, equals: { type: ['user.entered_geofence', 'user.exited_geofence'] }, limit: 2 });
  expect(both.docs.map((d) => d._id)).toEqual([ROWS - 1, ROWS - 2].map((n) => n.toString(16).padStart(24, '0')));
}

test('sqlite: queue head and events by type come from their ordered index', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-sorted-'));
  const store = new SqliteStore({ file: path.join(dir, 'w.sqlite') });
  try {
    await check(store, /TEMP B-TREE/, async () => undefined, { head: /coll_outbox_sorted_webhookid_state/, type: /coll_events_sorted_type/ });
    // Without the declaration the same query sorts every pending row of the endpoint: what the test guards.
    await store.define(named('outbox_plain', { keys: ['webhookId', 'state'] }));
    expect(store.explainList('outbox_plain', scope, HEAD)).toMatch(/TEMP B-TREE/);
  } finally {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

const pgTest = DATABASE_URL ? test : test.skip;
if (!DATABASE_URL) announceSkip('ordered index: the PostgreSQL half', envVar('DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/test'));
pgTest('postgres: queue head and events by type come from their ordered index', async () => {
  const schema = freshSchemaName();
  const store = await PostgresStore.open({ connectionString: DATABASE_URL as string, schema });
  try {
    await check(store, /\bSort\b/, async () => {
      await withClient((c) => c.query(`ANALYZE "${schema}".coll_outbox, "${schema}".coll_events`));
    }, { head: /coll_outbox_sorted_webhookid_state/, type: /coll_events_sorted_type/ });
  } finally {
    await store.close();
    await dropSchemas([schema]);
  }
});
