// SQL identifiers that come from configuration (the schema name) rather than from code.

/** Plain lower-case identifiers only: they need no quoting in psql, in docs, or in an operator's head. */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export function checkSchemaName(name: string): string {
  if (!SCHEMA_NAME.test(name)) {
    throw new Error(`PostgreSQL schema name "${name}" is not allowed: use lower-case letters, digits and _ (at most 63), not starting with a digit`);
  }
  return name;
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
