// Folds each full-text table of the geocoding index into one b-tree, as FTS5's 'optimize' does, but a
// slice of pages at a time ('merge'), so the import can report progress between slices: one 'optimize'
// of a state's address index is a single call silent for tens of seconds on a busy machine.
import type Database from 'better-sqlite3';

/** Pages written per slice: a fraction of a second each. */
const PAGES_PER_SLICE = 1000;

/**
 * Merges every b-tree of `table` into one. The first slice (a negative count) puts every segment on
 * one level and starts the merge; the next ones continue it until a slice changes nothing (FTS5 counts
 * at least two changes for a slice that did work). `progress` gets pages merged so far and an estimate
 * of the pages to merge (the table's pages at the start).
 */
export function mergeFtsTable(db: Database.Database, table: string, progress: (pages: number, total: number) => void): void {
  const total = (db.prepare(`SELECT count(*) AS n FROM ${table}_data`).get() as { n: number }).n;
  const changes = db.prepare('SELECT total_changes() AS n');
  const merge = db.prepare(`INSERT INTO ${table} (${table}, rank) VALUES ('merge', ?)`);
  let pages = 0;
  for (let first = true; ; first = false) {
    const before = (changes.get() as { n: number }).n;
    merge.run(first ? -PAGES_PER_SLICE : PAGES_PER_SLICE);
    if ((changes.get() as { n: number }).n - before < 2) break;
    pages += PAGES_PER_SLICE;
    progress(Math.min(pages, total), total);
  }
}
