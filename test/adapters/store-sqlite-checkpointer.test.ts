// The SQLite checkpointer thread (sqlite-checkpointer.ts): once the WAL has grown past its start size it
// copies committed pages into the database file beside the writer, and the WAL starts over, so it stays
// small however much is written; a store that writes little never starts it. Thresholds are scaled
// down so that a few MiB show what the bench sees with hundreds.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { SqliteStore } from '../../adapters/store/sqlite/sqlite-store';
import { put, type Scope, type WriteOp } from '../../ports/store';
import { until } from '../support/until';
import { named } from '../support/named-collection';

const scope: Scope = { projectId: 'p', live: false };
const FILLER = 'x'.repeat(4000);
const MiB = 1024 * 1024;

function puts(from: number, count: number): WriteOp[] {
  return Array.from({ length: count }, (_, i) => (put(named('things'), scope, { _id: `t${String(from + i).padStart(6, '0')}`, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', n: from + i, filler: FILLER })));
}

const sizeOf = (file: string): number => (fs.existsSync(file) ? fs.statSync(file).size : 0);

/** Every wait here: ample for a 20 ms round on a loaded machine. */
const WAIT_MS = 10_000;

describe('SQLite checkpointer thread', () => {
  let dir: string;
  let file: string;
  let store: SqliteStore | undefined;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-checkpointer-'));
    file = path.join(dir, 'w.sqlite');
  });
  afterEach(async () => {
    await store?.close();
    store = undefined;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('takes over once the WAL grows: the database file fills while writes go on, and the WAL starts over', async () => {
    store = new SqliteStore({ file, checkpointer: { startAtWalBytes: 256 * 1024, intervalMs: 20 } });
    await store.define(named('things', { keys: [] }));
    const rounds = 48;
    for (let r = 0; r < rounds; r++) {
      const before = sizeOf(file);
      await store.write(puts(r * 100, 100));
      // ~400 KiB a round: past the first, each is copied into the file long before the writer's own
      // automatic checkpoint (4,000 pages, ~16 MiB of WAL) would have run.
      if (r > 0) await until(`round ${r} in the database file`, () => sizeOf(file) > before, WAIT_MS);
    }
    // ~19 MiB written; the WAL holds a round or a few, not the lot.
    expect(sizeOf(file)).toBeGreaterThan(18 * MiB);
    expect(sizeOf(`${file}-wal`)).toBeLessThan(4 * MiB);
    const { docs } = await store.list(named('things'), scope, { limit: 10_000, sortBy: 'createdAt' });
    expect(docs.map((d) => d.n).sort((a, b) => Number(a) - Number(b))).toEqual(Array.from({ length: rounds * 100 }, (_, i) => i));
    await store.close();
    store = undefined;
    const db = new Database(file, { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect((db.prepare('SELECT count(*) AS n FROM coll_things').get() as { n: number }).n).toBe(rounds * 100);
    db.close();
  });

  test('once the writes pause, the WAL file is cut back to nothing; the next write grows it again', async () => {
    store = new SqliteStore({ file, checkpointer: { startAtWalBytes: 256 * 1024, intervalMs: 20 } });
    await store.define(named('things', { keys: [] }));
    // One write, not six: a pause between writes on a loaded machine let the thread cut the WAL early.
    await store.write(puts(0, 600));
    expect(sizeOf(`${file}-wal`)).toBeGreaterThan(MiB);
    // SQLite alone would keep the file at its largest for as long as the database is open.
    await until('the WAL truncated', () => sizeOf(`${file}-wal`) === 0, WAIT_MS);
    await store.write(puts(600, 10));
    expect(sizeOf(`${file}-wal`)).toBeGreaterThan(0);
    const { docs } = await store.list(named('things'), scope, { limit: 1000, sortBy: 'createdAt' });
    expect(docs).toHaveLength(610);
  });

  test('a checkpointer thread that dies is reported and replaced: the next one copies again', async () => {
    const errors: string[] = [];
    store = new SqliteStore({ file, checkpointer: { startAtWalBytes: 256 * 1024, intervalMs: 20 }, onError: (err) => errors.push(err.message) });
    await store.define(named('things', { keys: [] }));
    await store.write(puts(0, 100));
    let before = sizeOf(file);
    await store.write(puts(100, 100));
    await until('the first thread copying', () => sizeOf(file) > before, WAIT_MS);
    // Fault injection: the thread ends as an out-of-memory kill or a native crash would end it. The
    // store's fields are private; this test reaches the thread on purpose.
    const internals = store as unknown as { writer: { checkpointer: { worker: { terminate(): Promise<number> } } | undefined } };
    const first = internals.writer.checkpointer!;
    await first.worker.terminate();
    await until('the death reported', () => errors.length > 0, WAIT_MS);
    expect(errors[0]).toMatch(/SQLite checkpointer thread stopped \(exited with code 1\); starting another in 1 s/);
    // ~1 s later another thread runs, and what the writer commits from then on reaches the file again.
    await until('another thread', () => internals.writer.checkpointer !== undefined && internals.writer.checkpointer !== first, WAIT_MS);
    before = sizeOf(file);
    await store.write(puts(200, 100));
    await until('the second thread copying', () => sizeOf(file) > before, WAIT_MS);
    expect(errors).toHaveLength(1);
    const { docs } = await store.list(named('things'), scope, { limit: 1000, sortBy: 'createdAt' });
    expect(docs).toHaveLength(300);
  });

  test('a store that writes less than the start size never starts it: its WAL is copied by nobody', async () => {
    store = new SqliteStore({ file, checkpointer: { startAtWalBytes: 4 * MiB, intervalMs: 20 } });
    await store.define(named('things', { keys: [] }));
    const before = sizeOf(file);
    for (let r = 0; r < 5; r++) await store.write(puts(r * 50, 50));
    expect(sizeOf(`${file}-wal`)).toBeGreaterThan(MiB);
    // Many rounds' worth of waiting: a running checkpointer would have copied the ~1 MiB by now.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sizeOf(file)).toBe(before);
  });

  test('without it (checkpointer: false) the writer keeps its own checkpoints', async () => {
    store = new SqliteStore({ file, checkpointer: false });
    await store.define(named('things', { keys: [] }));
    for (let r = 0; r < 6; r++) await store.write(puts(r * 100, 100));
    await new Promise((resolve) => setTimeout(resolve, 100));
    // 2.4 MiB written, far below the writer's 4,000 pages: nothing is copied yet.
    expect(sizeOf(`${file}-wal`)).toBeGreaterThan(2 * MiB);
    expect(sizeOf(file)).toBeLessThan(MiB);
  });
});
