// One table per collection, with exactly the indexes its declaration asks for. Every collection used to
// share one `docs` table carrying every index any collection needed: each event insert also wrote an
// updated-at entry nobody reads, each presence row five B-tree entries where three serve, and the queue
// rows of the webhook outbox eight. Here a collection's table has its primary key and:
//   - one date index per declared `orders` entry (the sorts it is listed in without a key);
//   - one index per key, unless a unique rule on that key alone or a sorted index starting with it
//     already serves equality on it, or it is declared `unindexed`;
//   - its unique rules, sorted combinations, point and due date.
// A volatile collection (port.ts) has its updatedAt order and its point indexed by their coarse columns
// (coarse-index.ts) instead: updated_hour, and (lat_cell, lng_cell).
// Shared by the SQL adapters so that both stores index a collection the same way.
import type { CollectionSpec } from '../../ports/store';
import { KEY_SLOTS } from './indexed-fields';

export interface TableIndex {
  name: string;
  /** Columns after the (project_id, live) prefix, unless `global`. */
  columns: string[];
  unique: boolean;
  /** A partial index's condition, SQL over the table's columns. */
  where?: string;
  /** Not prefixed by the scope (the due index is read across all scopes). */
  global?: boolean;
  /** For a unique index: the declared field it makes unique. */
  field?: string;
}

export interface CollectionTable {
  table: string;
  indexes: TableIndex[];
}

export const DEFAULT_ORDERS = ['createdAt', 'updatedAt'] as const;

const WORD = /^[a-z][a-z0-9_]*$/i;

function checkWord(collection: string, word: string): void {
  if (!WORD.test(word)) throw new Error(`collection ${collection}: "${word}" cannot name a table or an index (letters, digits, _)`);
}

export function tableName(collection: string): string {
  checkWord(collection, collection);
  // Unquoted SQL names fold case (PostgreSQL to lower): say so rather than rely on it.
  return `coll_${collection.toLowerCase()}`;
}

function slot(collection: string, spec: CollectionSpec, key: string, what: string): number {
  checkWord(collection, key);
  const i = spec.keys.indexOf(key);
  if (i < 0) throw new Error(`collection ${collection}: ${what} ${key} must be one of its keys`);
  return i;
}

export function collectionTable(collection: string, spec: CollectionSpec): CollectionTable {
  if (spec.keys.length > KEY_SLOTS) throw new Error(`collection ${collection}: at most ${KEY_SLOTS} keys`);
  const table = tableName(collection);
  const indexes: TableIndex[] = [];
  for (const order of spec.orders ?? DEFAULT_ORDERS) {
    // A volatile collection's updatedAt order is kept by the hour (coarse-index.ts).
    if (order === 'updatedAt' && spec.volatile) indexes.push({ name: `${table}_updated_hour`, columns: ['updated_hour'], unique: false });
    else {
      const column = order === 'createdAt' ? 'created_at' : 'updated_at';
      indexes.push({ name: `${table}_${column}`, columns: [column], unique: false });
    }
  }
  const served = new Set<string>();
  for (const key of spec.unindexed ?? []) {
    slot(collection, spec, key, 'unindexed field');
    served.add(key);
  }
  for (const rule of spec.unique ?? []) {
    const i = slot(collection, spec, rule.key, 'unique field');
    const where = [`k${i} IS NOT NULL`];
    if (rule.whenAbsent !== undefined) where.push(`k${slot(collection, spec, rule.whenAbsent, 'unique condition')} IS NULL`);
    else served.add(rule.key);
    indexes.push({ name: `${table}_unique_${rule.key.toLowerCase()}`, columns: [`k${i}`], unique: true, where: where.join(' AND '), field: rule.key });
  }
  for (const keys of spec.sorted ?? []) {
    const columns = keys.map((key) => `k${slot(collection, spec, key, 'sorted key')}`);
    served.add(keys[0]);
    indexes.push({ name: `${table}_sorted_${keys.join('_').toLowerCase()}`, columns: [...columns, 'created_at', 'id'], unique: false });
  }
  spec.keys.forEach((key, i) => {
    if (served.has(key)) return;
    checkWord(collection, key);
    indexes.push({ name: `${table}_key_${key.toLowerCase()}`, columns: [`k${i}`], unique: false, where: `k${i} IS NOT NULL` });
  });
  if (spec.point && spec.volatile) indexes.push({ name: `${table}_cell`, columns: ['lat_cell', 'lng_cell'], unique: false, where: 'lat_cell IS NOT NULL' });
  else if (spec.point) indexes.push({ name: `${table}_point`, columns: ['lat', 'lng'], unique: false, where: 'lat IS NOT NULL' });
  if (spec.due) indexes.push({ name: `${table}_due`, columns: ['due_at'], unique: false, where: 'due_at IS NOT NULL', global: true });
  return { table, indexes };
}

/**
 * Whether an index of the collection's table is one this code made (and so may drop once the declaration
 * no longer asks for it): every index collectionTable() names starts with the table's name and "_". A
 * primary key or unique constraint's index is never one, whatever its name: callers exclude those first.
 */
export function isOwnIndex(table: string, index: string): boolean {
  return index.startsWith(`${table}_`);
}

/** The CREATE INDEX statement of one index, the same in SQLite and PostgreSQL. */
export function createIndexSql(table: string, index: TableIndex): string {
  const columns = index.global ? index.columns : ['project_id', 'live', ...index.columns];
  return `CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${index.name} ON ${table} (${columns.join(', ')})${index.where ? ` WHERE ${index.where}` : ''}`;
}

