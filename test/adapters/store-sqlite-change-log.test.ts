// The SQLite store's change log (adapters/store/sqlite/change-log.ts): two stores on one file stand for
// two processes (each has its own connections, as the CLI and a gateway do). What one writes to a
// broadcast collection, or to a project's keys and settings, the other's listeners hear; nobody hears
// their own writes; a reader that missed pruned rows hears that anything may have changed.
import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { put, remove, type RemoteChange, type Scope } from '../../ports/store';
import { SqliteStore } from '../../adapters/store/sqlite/sqlite-store';
import { at } from './store-conformance';
import { named } from '../support/named-collection';

const SCOPE: Scope = { projectId: 'p'.repeat(24), live: false };
const dirs: string[] = [];
const open: SqliteStore[] = [];

afterAll(async () => {
  for (const s of open) await s.close();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** Two stores on a new file, both with a broadcast and a plain collection; `heard` collects B's changes. */
async function twoProcesses(): Promise<{ file: string; a: SqliteStore; b: SqliteStore; heardByA: RemoteChange[]; heardByB: RemoteChange[] }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-change-log-'));
  dirs.push(dir);
  const file = path.join(dir, 'waymark.sqlite');
  // A poll period no test waits for: each test polls when it wants to.
  const [a, b] = [new SqliteStore({ file, changePollMs: 3_600_000 }), new SqliteStore({ file, changePollMs: 3_600_000 })];
  open.push(a, b);
  for (const s of [a, b]) {
    await s.define(named('fences', { keys: ['tag'], broadcast: true }));
    await s.define(named('notes', { keys: [] }));
  }
  const heardByA: RemoteChange[] = [];
  const heardByB: RemoteChange[] = [];
  a.onRemoteChange((c) => heardByA.push(c));
  b.onRemoteChange((c) => heardByB.push(c));
  return { file, a, b, heardByA, heardByB };
}

const doc = (n: number): { _id: string; createdAt: string; updatedAt: string; tag: string } => ({
  _id: n.toString(16).padStart(24, '0'), createdAt: at(1), updatedAt: at(2), tag: 't',
});

test('a write to a broadcast collection is heard by the other store, with its ids; the writer hears nothing', async () => {
  const { a, b, heardByA, heardByB } = await twoProcesses();
  await a.write([
    put(named('fences'), SCOPE, doc(1)),
    put(named('notes'), SCOPE, doc(2)),
  ]);
  await a.write([remove(named('fences'), SCOPE, doc(3)._id)]);
  b.pollChanges();
  a.pollChanges();
  // Two writes of one environment, merged into one change by the poll; the plain collection is not announced.
  expect(heardByB).toEqual([{ collection: 'fences', scope: SCOPE, projectId: SCOPE.projectId, ids: [doc(1)._id, doc(3)._id] }]);
  expect(heardByA).toEqual([]);
  b.pollChanges();
  expect(heardByB).toHaveLength(1);
});

test('a write of more ids than a note lists announces the whole environment, whatever follows it', async () => {
  const { a, b, heardByB } = await twoProcesses();
  await a.write(Array.from({ length: 1001 }, (_, i) => (put(named('fences'), SCOPE, doc(i + 1)))));
  // A small write after it, read in the same poll, keeps the change at "anything in the environment".
  await a.write([put(named('fences'), SCOPE, doc(5000))]);
  b.pollChanges();
  expect(heardByB).toEqual([{ collection: 'fences', scope: SCOPE, projectId: SCOPE.projectId }]);
});

test("a project's keys and settings changed by one store are heard by the other", async () => {
  const { a, b, heardByB } = await twoProcesses();
  await a.projects.create({ _id: SCOPE.projectId, name: 'app', createdAt: at(0), settings: {} }, []);
  b.pollChanges();
  expect(heardByB).toEqual([]);
  await a.projects.replaceKeys(SCOPE.projectId, []);
  await a.projects.updateSettings(SCOPE.projectId, { fraud: true });
  b.pollChanges();
  expect(heardByB).toEqual([{ collection: 'projects', projectId: SCOPE.projectId }]);
});

test('rows pruned before a reader saw them: it hears that anything may have changed, then follows again', async () => {
  const { file, a, b, heardByB } = await twoProcesses();
  await a.write([put(named('fences'), SCOPE, doc(1))]);
  // As the writers' pruning would after a reader stalled for over a minute.
  const raw = new Database(file);
  raw.prepare('DELETE FROM change_log').run();
  raw.close();
  await a.write([put(named('fences'), SCOPE, doc(2))]);
  b.pollChanges();
  expect(heardByB).toEqual([{ collection: '*' }]);
  await a.write([put(named('fences'), SCOPE, doc(3))]);
  b.pollChanges();
  expect(heardByB.slice(1)).toEqual([{ collection: 'fences', scope: SCOPE, projectId: SCOPE.projectId, ids: [doc(3)._id] }]);
});

test('writers prune rows older than a minute', async () => {
  const { file, a } = await twoProcesses();
  const raw = new Database(file);
  try {
    raw.prepare("INSERT INTO change_log (at, node, collection, project_id, live, ids) VALUES (?, 'old', 'fences', NULL, NULL, NULL)").run(Date.now() - 61_000);
    raw.prepare("INSERT INTO change_log (at, node, collection, project_id, live, ids) VALUES (?, 'recent', 'fences', NULL, NULL, NULL)").run(Date.now() - 30_000);
    // The first note a writer commits prunes; later ones only every 10 s.
    await a.write([put(named('fences'), SCOPE, doc(1))]);
    const nodes = (raw.prepare('SELECT node FROM change_log ORDER BY seq').all() as Array<{ node: string }>).map((r) => r.node);
    expect(nodes).toHaveLength(2);
    expect(nodes[0]).toBe('recent');
  } finally {
    raw.close();
  }
});
