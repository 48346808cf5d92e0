// The SQLite Store adapter: the shared conformance suite on a file and in memory, then what is particular
// to a file (reopening keeps data, migrations apply once, the directory is made).
import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SqliteStore } from '../../adapters/store/sqlite/sqlite-store';
import { at, storeConformance } from './store-conformance';
import { named } from '../support/named-collection';
import { put } from '../../ports/store';

const dirs: string[] = [];

function tempFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-store-'));
  dirs.push(dir);
  return path.join(dir, 'nested', 'waymark.sqlite');
}

afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

storeConformance('sqlite file', async () => new SqliteStore({ file: tempFile() }));
storeConformance('sqlite :memory:', async () => new SqliteStore({ file: ':memory:' }));

describe('SQLite file', () => {
  test('the directory of the file is made, and the data survives closing and reopening', async () => {
    const file = tempFile();
    const scope = { projectId: 'p1', live: true };
    const first = new SqliteStore({ file });
    await first.define(named('things', { keys: ['tag'], point: 'geometry', due: 'expiresAt' }));
    const d = { _id: 'a'.repeat(24), createdAt: at(1), updatedAt: at(2), tag: 't', geometry: { type: 'Point', coordinates: [1, 2] }, expiresAt: at(3) };
    await first.write([put(named('things'), scope, d)]);
    await first.projects.create({ _id: 'b'.repeat(24), name: 'kept', createdAt: at(0), settings: { fraud: true } }, []);
    await first.close();
    expect(fs.existsSync(file)).toBe(true);

    const second = new SqliteStore({ file });
    await second.define(named('things', { keys: ['tag'], point: 'geometry', due: 'expiresAt' }));
    try {
      expect(await second.get(named('things'), scope, d._id)).toEqual(d);
      expect(await second.findOne(named('things'), scope, { tag: 't' })).toEqual(d);
      expect(await second.within(named('things'), scope, { minLng: 0, minLat: 1, maxLng: 2, maxLat: 3 }, 10)).toEqual([d]);
      expect((await second.due(named('things'), at(10), 10)).map((x) => x.doc)).toEqual([d]);
      expect((await second.projects.get('b'.repeat(24)))?.settings).toEqual({ fraud: true });
    } finally {
      await second.close();
    }
  });

  test('migrations are applied once, whatever the number of opens', async () => {
    const file = tempFile();
    for (let i = 0; i < 3; i++) await new SqliteStore({ file }).close();
    const db = new Database(file, { readonly: true });
    try {
      const rows = db.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as Array<{ version: number }>;
      expect(rows.map((r) => r.version)).toEqual([...new Set(rows.map((r) => r.version))]);
      expect(rows.length).toBeGreaterThan(0);
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      db.close();
    }
  });

  test('a collection may declare at most four keys', async () => {
    const store = new SqliteStore({ file: ':memory:' });
    try {
      await expect(store.define(named('wide', { keys: ['a', 'b', 'c', 'd', 'e'] }))).rejects.toThrow('at most 4 keys');
    } finally {
      await store.close();
    }
  });
});
