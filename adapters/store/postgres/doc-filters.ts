// WHERE clauses for a collection's table, shared by list() and within(). Values always travel as parameters;
// field and metadata names too (as the right operand of ->), so no caller text is ever spliced into SQL.
import type { CollectionSpec, ListQuery, Scalar } from '../../../ports/store';

export const KEY_COLUMNS = ['k0', 'k1', 'k2', 'k3'] as const;

/** Numbered placeholders ($1, $2…) with their values, in order. */
export class SqlParams {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/**
 * Equality and metadata filters. Indexed keys compare their text column; other fields and metadata compare
 * jsonb values, which is type-aware: true ≠ "true" ≠ 1, while 1 = 1.0 (jsonb compares numbers as numbers).
 */
export function filterSql(spec: CollectionSpec, query: Pick<ListQuery, 'equals' | 'metadata'>, where: string[], p: SqlParams): void {
  for (const [field, value] of Object.entries(query.equals ?? {})) {
    const values: Scalar[] = Array.isArray(value) ? value : [value];
    if (values.length === 0) {
      where.push('FALSE');
      continue;
    }
    const index = spec.keys.indexOf(field);
    // One value compares with `=`: `= ANY(array)` would keep a composite index from giving the order.
    if (index >= 0 && values.length === 1) where.push(`${KEY_COLUMNS[index]} = ${p.add(String(values[0]))}::text`);
    else if (index >= 0) where.push(`${KEY_COLUMNS[index]} = ANY(${p.add(values.map(String))}::text[])`);
    else where.push(`doc -> ${p.add(field)}::text = ANY(${p.add(values.map((v) => JSON.stringify(v)))}::jsonb[])`);
  }
  for (const [key, value] of Object.entries(query.metadata ?? {})) {
    where.push(`doc -> 'metadata' -> ${p.add(key)}::text = ${p.add(JSON.stringify(value))}::jsonb`);
  }
}
