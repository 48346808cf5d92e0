// How a write() becomes SQL statements now that each collection has its own table. A track update writes
// a user, its events, outbox rows and presence rows: four tables. One statement per table would be a
// transaction of several round trips where the shared table needed one; instead the ops go into as few
// statements as possible, each touching every table at most once (puts as one multi-row upsert, deletes
// as one multi-row delete) and combining tables through data-modifying WITH clauses, which PostgreSQL
// runs atomically as one statement. A statement ends where keeping op order requires it: a table's puts
// and deletes never share one (a delete then a put of one id must stay in that order), nor does one row
// appear twice in one (ON CONFLICT may not touch a row twice in a command).
//
// A versioned table's rows carry a revision: inserts take the column default (1), every update adds 1.
// A put expecting a revision (a "checked" put) is a step of its own, an UPDATE at that revision (or an
// insert that does nothing if the row exists, for "must not exist"); the statement's final SELECT calls
// revision_conflict() (migration 3) unless every checked step touched its row, and that error undoes the
// whole statement: its other steps included, since a statement is atomic.
import { TABLE_COLUMNS } from './collection-schema';

/** One row of a collection table, in TABLE_COLUMNS order. */
export type RowColumns = [string, boolean, string, string, string, string | null, string | null, string | null, string | null, number | null, number | null, string | null, string];

const COLUMN_TYPES = ['text', 'boolean', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'float8', 'float8', 'text', 'jsonb'];
const KEY_TYPES = ['text', 'boolean', 'text'];
/** The upsert of a put; `t` is the target table's alias. */
function upsert(versioned: boolean): string {
  return `ON CONFLICT (project_id, live, id) DO UPDATE SET
  created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at, k0 = EXCLUDED.k0, k1 = EXCLUDED.k1,
  k2 = EXCLUDED.k2, k3 = EXCLUDED.k3, lng = EXCLUDED.lng, lat = EXCLUDED.lat, due_at = EXCLUDED.due_at, doc = EXCLUDED.doc${versioned ? ', rev = t.rev + 1' : ''}`;
}

export type PlannedOp =
  | { table: string; versioned: boolean; put: RowColumns; expectRev?: number }
  | { table: string; del: [string, boolean, string] };

interface TableStep {
  table: string;
  kind: 'put' | 'delete' | 'checked';
  versioned: boolean;
  /** A checked step's one row: the revision it must have (0: must not exist). */
  expectRev?: number;
  /** Rows to upsert, or [project_id, live, id] keys to delete. */
  rows: unknown[][];
  keys: Set<string>;
}

export interface WriteStatement {
  text: string;
  values: unknown[];
}

/**
 * The ops, in as few statements as keep their effect, in order. `conflictFn` is the schema-qualified
 * revision_conflict function, called by statements holding checked puts.
 */
export function planStatements(ops: PlannedOp[], conflictFn: string): WriteStatement[] {
  const groups: TableStep[][] = [];
  let steps = new Map<string, TableStep>();
  const flush = (): void => {
    if (steps.size > 0) groups.push([...steps.values()]);
    steps = new Map();
  };
  for (const op of ops) {
    const checked = 'put' in op && op.expectRev !== undefined;
    const kind = 'put' in op ? (checked ? 'checked' : 'put') : 'delete';
    const row: unknown[] = 'put' in op ? op.put : op.del;
    const key = JSON.stringify([row[0], row[1], row[2]]);
    let step = steps.get(op.table);
    // A checked put shares its statement with no other op on its table.
    if (step && (step.kind !== kind || kind === 'checked' || step.keys.has(key))) {
      flush();
      step = undefined;
    }
    const versioned = 'put' in op && op.versioned;
    const expectRev = 'put' in op ? op.expectRev : undefined;
    if (!step) steps.set(op.table, (step = { table: op.table, kind, versioned, expectRev, rows: [], keys: new Set() }));
    step.rows.push(row);
    step.keys.add(key);
  }
  flush();
  return groups.map((group) => statementOf(group, conflictFn));
}

function statementOf(steps: TableStep[], conflictFn: string): WriteStatement {
  const values: unknown[] = [];
  const checked = steps.filter((step) => step.kind === 'checked');
  if (steps.length === 1 && steps[0].rows.length === 1 && checked.length === 0) {
    // The common single-row case keeps plain parameters.
    const [{ table, kind, rows, versioned }] = steps;
    values.push(...rows[0]);
    if (kind === 'delete') return { text: `DELETE FROM ${table} WHERE project_id = $1 AND live = $2 AND id = $3`, values };
    const placeholders = COLUMN_TYPES.map((_, i) => `$${i + 1}`).join(', ');
    return { text: `INSERT INTO ${table} AS t (${TABLE_COLUMNS}) VALUES (${placeholders}) ${upsert(versioned)}`, values };
  }
  const param = (value: unknown, type: string): string => {
    values.push(value);
    return `$${values.length}::${type}`;
  };
  // Column arrays unnested into rows: one statement, and one text, whatever the number of rows.
  const arrays = (types: string[], rows: unknown[][]): string => types.map((type, i) => {
    values.push(rows.map((row) => row[i]));
    return `$${values.length}::${type}[]`;
  }).join(', ');
  const checkedPart = (table: string, row: unknown[], expectRev: number): string => {
    const p = row.map((value, i) => param(value, COLUMN_TYPES[i]));
    if (expectRev === 0) return `INSERT INTO ${table} (${TABLE_COLUMNS}) VALUES (${p.join(', ')}) ON CONFLICT (project_id, live, id) DO NOTHING RETURNING 1`;
    return `UPDATE ${table} SET created_at = ${p[3]}, updated_at = ${p[4]}, k0 = ${p[5]}, k1 = ${p[6]}, k2 = ${p[7]}, k3 = ${p[8]},
       lng = ${p[9]}, lat = ${p[10]}, due_at = ${p[11]}, doc = ${p[12]}, rev = rev + 1
       WHERE project_id = ${p[0]} AND live = ${p[1]} AND id = ${p[2]} AND rev = ${param(expectRev, 'bigint')} RETURNING 1`;
  };
  const parts = steps.map(({ table, kind, rows, versioned, expectRev }) => {
    if (kind === 'checked') return checkedPart(table, rows[0], expectRev ?? 0);
    if (kind === 'put') return `INSERT INTO ${table} AS t (${TABLE_COLUMNS}) SELECT * FROM unnest(${arrays(COLUMN_TYPES, rows)}) ${upsert(versioned)}`;
    return `DELETE FROM ${table} AS t USING unnest(${arrays(KEY_TYPES, rows)}) AS x(project_id, live, id)
       WHERE t.project_id = x.project_id AND t.live = x.live AND t.id = x.id`;
  });
  if (parts.length === 1 && checked.length === 0) return { text: parts[0], values };
  // Data-modifying WITH clauses run to completion whether or not the main query reads them; the final
  // SELECT reads the checked ones, and fails the statement (undoing all of them) when one touched no row.
  let result = '1';
  if (checked.length > 0) {
    const touched = steps.flatMap((step, i) => (step.kind === 'checked' ? [`(SELECT count(*) FROM w${i}) = 1`] : []));
    const detail = checked.map((step) => `${String(step.rows[0][2])} expected at revision ${step.expectRev ?? 0}`).join('; ');
    result = `CASE WHEN ${touched.join(' AND ')} THEN 1 ELSE ${conflictFn}(${param(detail, 'text')}) END`;
  }
  return { text: `WITH ${parts.map((part, i) => `w${i} AS (${part})`).join(', ')} SELECT ${result}`, values };
}
