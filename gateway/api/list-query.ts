// Query parameters shared by the list endpoints: limit and the date cursors.
import type { DateRange } from '../../adapters/store/port';
import { readDatetime, readNumber } from '../http/params';

export function readLimit(query: Record<string, unknown>, max: number, fallback: number): number {
  return readNumber(query.limit, 'limit', { min: 1, max, integer: true }) ?? fallback;
}

/** `<prefix>Before` / `<prefix>After` datetimes → a range on createdAt or updatedAt. */
export function readDateRange(query: Record<string, unknown>, field: 'createdAt' | 'updatedAt'): DateRange | undefined {
  const prefix = field === 'createdAt' ? 'created' : 'updated';
  const before = readDatetime(query[`${prefix}Before`], `${prefix}Before`);
  const after = readDatetime(query[`${prefix}After`], `${prefix}After`);
  if (!before && !after) return undefined;
  return { field, before: before?.toISOString(), after: after?.toISOString() };
}

export function ranges(...items: Array<DateRange | undefined>): DateRange[] {
  return items.filter((r): r is DateRange => r !== undefined);
}
