// A write refused because it would give two documents the same value of a field the collection declares
// unique. Every adapter raises this one class, so callers can resolve the race (reload and retry) without
// knowing which database said no.
export class UniqueViolation extends Error {
  constructor(
    readonly collection: string,
    detail: string,
  ) {
    super(`unique field of ${collection} already taken: ${detail}`);
    this.name = 'UniqueViolation';
  }
}

/** The SQL that makes one declared unique field unique within a scope, as a partial index on the docs table. */
export function uniqueIndexParts(collection: string, keys: readonly string[], rule: { key: string; whenAbsent?: string }): { name: string; column: string; where: string } {
  const slot = keys.indexOf(rule.key);
  if (slot < 0) throw new Error(`collection ${collection}: unique field ${rule.key} must be one of its keys`);
  if (!/^[a-z0-9_]+$/i.test(collection) || !/^[a-z0-9_]+$/i.test(rule.key)) throw new Error(`collection ${collection}: unique index names must be plain words`);
  const where = [`collection = '${collection}'`, `k${slot} IS NOT NULL`];
  if (rule.whenAbsent !== undefined) {
    const other = keys.indexOf(rule.whenAbsent);
    if (other < 0) throw new Error(`collection ${collection}: ${rule.whenAbsent} must be one of its keys`);
    where.push(`k${other} IS NULL`);
  }
  return { name: `docs_unique_${collection}_${rule.key}`.toLowerCase(), column: `k${slot}`, where: where.join(' AND ') };
}
