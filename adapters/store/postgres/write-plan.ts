// How a write() becomes SQL statements now that each collection has its own table. A track update writes
// a user, its events, outbox rows and presence rows: four tables. One statement per table would be a
// transaction of several round trips where the shared table needed one; instead the ops go into as few
// statements as possible, each touching every table at most once (puts as one multi-row upsert, deletes
// as one multi-row delete) and combining tables through data-modifying WITH clauses, which PostgreSQL
// runs atomically as one statement. A statement ends where keeping op order requires it: a table's puts
// and deletes never share one (a delete then a put of one id must stay in that order), nor does one row
// appear twice in one (ON CONFLICT may not touch a row twice in a command).
import { TABLE_COLUMNS } from './collection-schema';

/** One row of a collection table, in TABLE_COLUMNS order. */
export type RowColumns = [string, boolean, string, string, string, string | null, string | null, string | null, string | null, number | null, number | null, string | null, string];

const COLUMN_TYPES = ['text', 'boolean', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'float8', 'float8', 'text', 'jsonb'];
const KEY_TYPES = ['text', 'boolean', 'text'];
const UPSERT = `ON CONFLICT (project_id, live, id) DO UPDATE SET
  created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at, k0 = EXCLUDED.k0, k1 = EXCLUDED.k1,
  k2 = EXCLUDED.k2, k3 = EXCLUDED.k3, lng = EXCLUDED.lng, lat = EXCLUDED.lat, due_at = EXCLUDED.due_at, doc = EXCLUDED.doc`;

export type PlannedOp =
  | { table: string; put: RowColumns }
  | { table: string; del: [string, boolean, string] };

interface TableStep {
  table: string;
  kind: 'put' | 'delete';
  /** Rows to upsert, or [project_id, live, id] keys to delete. */
  rows: unknown[][];
  keys: Set<string>;
}

export interface WriteStatement {
  text: string;
  values: unknown[];
}

/** The ops, in as few statements as keep their effect, in order. */
export function planStatements(ops: PlannedOp[]): WriteStatement[] {
  const groups: TableStep[][] = [];
  let steps = new Map<string, TableStep>();
  const flush = (): void => {
    if (steps.size > 0) groups.push([...steps.values()]);
    steps = new Map();
  };
  for (const op of ops) {
    const kind = 'put' in op ? 'put' : 'delete';
    const row: unknown[] = 'put' in op ? op.put : op.del;
    const key = JSON.stringify([row[0], row[1], row[2]]);
    let step = steps.get(op.table);
    if (step && (step.kind !== kind || step.keys.has(key))) {
      flush();
      step = undefined;
    }
    if (!step) steps.set(op.table, (step = { table: op.table, kind, rows: [], keys: new Set() }));
    step.rows.push(row);
    step.keys.add(key);
  }
  flush();
  return groups.map(statementOf);
}

function statementOf(steps: TableStep[]): WriteStatement {
  const values: unknown[] = [];
  if (steps.length === 1 && steps[0].rows.length === 1) {
    // The common single-row case keeps plain parameters.
    const [{ table, kind, rows }] = steps;
    values.push(...rows[0]);
    if (kind === 'delete') return { text: `DELETE FROM ${table} WHERE project_id = $1 AND live = $2 AND id = $3`, values };
    const placeholders = COLUMN_TYPES.map((_, i) => `$${i + 1}`).join(', ');
    return { text: `INSERT INTO ${table} (${TABLE_COLUMNS}) VALUES (${placeholders}) ${UPSERT}`, values };
  }
  // Column arrays unnested into rows: one statement, and one text, whatever the number of rows.
  const arrays = (types: string[], rows: unknown[][]): string => types.map((type, i) => {
    values.push(rows.map((row) => row[i]));
    return `$${values.length}::${type}[]`;
  }).join(', ');
  const parts = steps.map(({ table, kind, rows }) => kind === 'put'
    ? `INSERT INTO ${table} (${TABLE_COLUMNS}) SELECT * FROM unnest(${arrays(COLUMN_TYPES, rows)}) ${UPSERT}`
    : `DELETE FROM ${table} AS t USING unnest(${arrays(KEY_TYPES, rows)}) AS x(project_id, live, id)
       WHERE t.project_id = x.project_id AND t.live = x.live AND t.id = x.id`);
  if (parts.length === 1) return { text: parts[0], values };
  // Data-modifying WITH clauses run to completion whether or not the main query reads them.
  return { text: `WITH ${parts.map((part, i) => `w${i} AS (${part})`).join(', ')} SELECT 1`, values };
}
