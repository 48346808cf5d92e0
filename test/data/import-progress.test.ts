// An import is never silent for long: the CLI's step lines speak at least every few seconds while a
// phase goes on (counts, rate, time left), and the geocoding index's full-text merge, one call of
// FTS5's 'optimize' silent for tens of seconds on a state, now reports between slices and ends with the
// same single b-tree per table.
import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ProgressStep, type ProgressEvent } from '../../importers/osm/import-progress';
import { mergeFtsTable } from '../../importers/osm/stages/geocoding/fts-merge';
import { stepLines } from '../../server/cli/progress';

/** A stream as stepLines sees one off a terminal, keeping what it is given. */
function logStream(): { stream: NodeJS.WriteStream; lines: string[] } {
  const lines: string[] = [];
  const stream = { isTTY: false, write: (s: string) => lines.push(...s.split('\n').filter((l) => l !== '')) } as unknown as NodeJS.WriteStream;
  return { stream, lines };
}

describe('step lines off a terminal', () => {
  afterEach(() => jest.useRealTimers());

  test('a phase whose share does not move still prints a line at least every 5 s, with its counts', () => {
    jest.useFakeTimers({ now: new Date('2026-11-26T12:00:00Z') });
    const { stream, lines } = logStream();
    const step = new ProgressStep('geocoding', stepLines(stream), { step: 1, steps: 3, importStarted: process.hrtime.bigint() });
    // One report a second for a minute, stuck in the same tenth of a long phase.
    for (let s = 0; s <= 60; s++) {
      jest.setSystemTime(new Date(Date.parse('2026-11-26T12:00:00Z') + s * 1000));
      step.update(1000 + s, 100_000, undefined, 'merging the search index 1 of 5 (street_name_fts)');
    }
    // The first line, then one at least every 5 s: 12 or 13 in 60 s, never one a second.
    expect(lines.length).toBeGreaterThanOrEqual(12);
    expect(lines.length).toBeLessThanOrEqual(14);
    for (const line of lines) expect(line).toMatch(/^\[1\/3\] geocoding: merging the search index 1 of 5 \(street_name_fts\) 1% · [\d,]+ of 100,000/);
  });

  test('a new phase prints at once, and the end of a step says what it did', () => {
    jest.useFakeTimers({ now: new Date('2026-11-26T12:00:00Z') });
    const { stream, lines } = logStream();
    const events: ProgressEvent[] = [];
    const draw = stepLines(stream);
    const step = new ProgressStep('geocoding', (e) => {
      events.push(e);
      draw(e);
    }, { step: 2, steps: 3, importStarted: process.hrtime.bigint() });
    step.update(10, 100, undefined, 'admin lookup');
    jest.setSystemTime(Date.now() + 300);
    step.update(0, 5, undefined, 'merging the search index 1 of 5 (street_name_fts)');
    step.finish('4 addresses');
    expect(lines).toEqual([
      expect.stringMatching(/^\[2\/3\] geocoding: admin lookup 10% · 10 of 100/),
      expect.stringMatching(/^\[2\/3\] geocoding: merging the search index 1 of 5 \(street_name_fts\) 0% · 0 of 5/),
      expect.stringMatching(/^\[2\/3\] geocoding: 4 addresses in [\d.]+ s, peak memory [\d.]+ [KMG]iB \(\d+ s since start\)$/),
    ]);
    expect(events.map((e) => e.phase)).toEqual(['admin lookup', 'merging the search index 1 of 5 (street_name_fts)', 'done']);
  });
});

describe('the full-text merge of the geocoding index', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-fts-merge-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  function table(file: string): Database.Database {
    const db = new Database(path.join(dir, file));
    db.pragma('journal_mode = OFF');
    db.exec("CREATE VIRTUAL TABLE street_name_fts USING fts5(norm, content='', prefix='1 2 3')");
    const insert = db.prepare('INSERT INTO street_name_fts (rowid, norm) VALUES (?, ?)');
    // Several transactions: several b-trees to merge, and enough pages for several slices.
    for (let part = 0; part < 8; part++) {
      db.transaction(() => {
        for (let i = 1; i <= 15_000; i++) {
          const id = part * 15_000 + i;
          insert.run(id, `street${id % 4999} avenue${(id * 7) % 3331} north ${id % 97}`);
        }
      })();
    }
    return db;
  }

  const structure = (db: Database.Database): Buffer => (db.prepare('SELECT block FROM street_name_fts_data WHERE id = 10').get() as { block: Buffer }).block;
  const hits = (db: Database.Database, q: string): number[] =>
    (db.prepare('SELECT rowid FROM street_name_fts WHERE street_name_fts MATCH ? ORDER BY rowid').all(q) as Array<{ rowid: number }>).map((r) => r.rowid);

  test('reports between slices and leaves one b-tree, answering as after FTS5 optimize', () => {
    const merged = table('merged.db');
    const optimized = table('optimized.db');
    const before = structure(merged);
    const reports: Array<[number, number]> = [];
    mergeFtsTable(merged, 'street_name_fts', (pages, total) => reports.push([pages, total]));
    optimized.exec("INSERT INTO street_name_fts (street_name_fts) VALUES ('optimize')");
    // Progress came more than once, growing, against one total.
    expect(reports.length).toBeGreaterThan(1);
    for (let k = 1; k < reports.length; k++) expect(reports[k][0]).toBeGreaterThan(reports[k - 1][0]);
    expect(new Set(reports.map(([, total]) => total)).size).toBe(1);
    // The structure record changed and now equals the optimized table's: one segment on one level.
    expect(structure(merged).equals(before)).toBe(false);
    expect(structure(merged).length).toBe(structure(optimized).length);
    for (const q of ['street12*', 'avenue7 north', 'north 5', 'str*']) expect([q, hits(merged, q)]).toEqual([q, hits(optimized, q)]);
    merged.close();
    optimized.close();
  });
});
