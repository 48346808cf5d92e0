// The PostgreSQL table of one collection, laid out as collection-table.ts says (the same indexes as the
// SQLite store), plus the PostGIS point column and its GiST index when within() uses PostGIS. Creating it,
// moving in the collection's documents from the shared `docs` table of earlier versions, building its
// missing indexes and dropping those the declaration no longer asks for is one transaction: an
// interrupted upgrade leaves the rows where they were, and the next start moves them. The caller holds
// the migration lock, so nodes starting together take turns and the second finds everything in place
// (and then only reads the catalog).
import type { PoolClient } from 'pg';
import { collectionTable, createIndexSql, isOwnIndex, type TableIndex } from '../collection-table';
import { COARSE_COLUMNS, COARSE_SQL } from '../coarse-index';
import type { CollectionSpec } from '../../../ports/store';
import { errorText } from './connection';
import { quoteIdent } from './identifiers';

/** The columns of a collection table, in the order writes give them; `geom`, when present, is generated. */
export const TABLE_COLUMNS = 'project_id, live, id, created_at, updated_at, k0, k1, k2, k3, lng, lat, due_at, doc';

/** A versioned collection's revision (CollectionSpec.versioned): inserts start at 1, updates add 1. */
const REV_COLUMN = 'rev bigint NOT NULL DEFAULT 1';

/**
 * A volatile collection's rows are rewritten on nearly every write; an update that changes no indexed
 * value can be HOT (no new index entries) only if the new version fits on the row's own page. Pages
 * filled to 100 % by inserts leave no room until pruning frees dead versions; 80 % leaves 1.6 KB per page,
 * about one user row of the bench (1.4 KB, its document compressed inline). Measured with 3,000 such
 * users and 6,000 single updates within their hour and cell: 75 % of updates HOT at 100, 99 % at 80, for
 * a table 28 % larger.
 */
const VOLATILE_FILLFACTOR = 80;

/** PostgreSQL cuts longer names to 63 bytes, which would make two indexes one, or hide a unique index's name. */
const MAX_NAME = 63;

export interface CollectionSchemaOptions {
  /** The schema as written in SQL (quoted). */
  schema: string;
  /** The schema's plain name, for catalog lookups. */
  schemaName: string;
  /** The quoted schema of the postgis extension, when within() uses PostGIS. */
  postgis?: string;
}

export interface PreparedCollection {
  /** Schema-qualified table name. */
  table: string;
  /** Names of the unique indexes, as PostgreSQL reports them in a violation. */
  uniqueIndexes: string[];
  /** Declared unique rules that existing duplicates keep from being enforced. */
  warnings: string[];
}

export async function prepareCollection(client: PoolClient, collection: string, spec: CollectionSpec, opts: CollectionSchemaOptions): Promise<PreparedCollection> {
  const layout = collectionTable(collection, spec);
  const table = `${opts.schema}.${layout.table}`;
  const volatile = spec.volatile === true;
  // A volatile collection's point is indexed by its cells (coarse-index.ts), not by GiST: a GiST entry
  // changes with every move, and would keep every update from being HOT.
  const spatial = opts.postgis !== undefined && spec.point !== undefined && !volatile;
  // With PostGIS the GiST index answers within(): a lat/lng btree too would be one more entry per write.
  const indexes: TableIndex[] = layout.indexes.filter((i) => !(spatial && i.name === `${layout.table}_point`));
  const geomIndex = `${layout.table}_geom`;
  const names = [layout.table, geomIndex, `${layout.table}_point`, ...indexes.map((i) => i.name)];
  for (const name of names) {
    if (name.length > MAX_NAME) throw new Error(`collection ${collection}: ${name} is longer than PostgreSQL's ${MAX_NAME}-byte names`);
  }
  const uniqueIndexes = indexes.filter((i) => i.unique).map((i) => i.name);

  const tableExists = ((await client.query(
    'SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relname = $2',
    [opts.schemaName, layout.table],
  )).rowCount ?? 0) > 0;
  const columns = new Set(tableExists ? (await client.query<{ name: string }>(
    'SELECT attname AS name FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped', [table],
  )).rows.map((r) => r.name) : []);
  // Indexes present, and those an earlier declaration asked for and this one does not: each would still
  // cost an entry per write. Only ours (named after the table), never the index of a constraint (the
  // primary key's coll_x_pkey, which PostgreSQL names itself).
  const present = tableExists ? (await client.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
     WHERE i.indrelid = $1::regclass AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid AND k.conrelid = i.indrelid)`,
    [table],
  )).rows.map((r) => r.name) : [];
  const wanted = new Set([...indexes.map((i) => i.name), ...(spatial ? [geomIndex] : [])]);
  const obsolete = present.filter((name) => isOwnIndex(layout.table, name) && !wanted.has(name));
  // A collection that became versioned gets its revision column; existing rows start at 1.
  const addRev = tableExists && spec.versioned === true && !columns.has('rev');
  const hasGeom = columns.has('geom');
  const hasCoarse = COARSE_COLUMNS.some((c) => columns.has(c));
  const legacy = ((await client.query(`SELECT 1 FROM ${opts.schema}.docs WHERE collection = $1 LIMIT 1`, [collection])).rowCount ?? 0) > 0;
  const missing = indexes.filter((i) => !present.includes(i.name));
  const addGeom = spatial && tableExists && !hasGeom;
  const needGeomIndex = spatial && !present.includes(geomIndex);
  // A collection that became volatile gets its coarse columns (and loses the point column only GiST
  // read); one that no longer is loses them.
  const addCoarse = volatile && tableExists && !COARSE_COLUMNS.every((c) => columns.has(c));
  const dropCoarse = !volatile && hasCoarse;
  const dropGeom = volatile && hasGeom;
  const warnings: string[] = [];
  if (tableExists && !legacy && missing.length === 0 && !addGeom && !needGeomIndex && obsolete.length === 0 && !addRev && !addCoarse && !dropCoarse && !dropGeom) {
    return { table, uniqueIndexes, warnings };
  }

  const g = opts.postgis;
  // A planar point in EPSG:4326, generated from lng/lat so that writers never need to know about PostGIS
  // (see migration 2 for why planar).
  const geomColumn = `geom ${g}.geometry(Point, 4326) GENERATED ALWAYS AS (
    CASE WHEN lng IS NULL OR lat IS NULL THEN NULL ELSE ${g}.ST_SetSRID(${g}.ST_MakePoint(lng, lat), 4326) END) STORED`;
  // Generated from the exact columns, so writers send nothing more; double precision cells, so that no
  // coordinate, however wrong, makes a write fail on an integer overflow.
  const coarseColumns = COARSE_COLUMNS.filter((c) => !columns.has(c)).map((c) => (c === 'updated_hour'
    ? `${c} text COLLATE "C" GENERATED ALWAYS AS (${COARSE_SQL[c]}) STORED`
    : `${c} double precision GENERATED ALWAYS AS (${COARSE_SQL[c]}) STORED`));
  await client.query('BEGIN');
  try {
    // First, so that a rewrite below does not rebuild them. With PostGIS the lat/lng btree of earlier
    // versions is among them: the GiST index replaced it.
    for (const name of obsolete) await client.query(`DROP INDEX IF EXISTS ${opts.schema}.${quoteIdent(name)}`);
    if (!tableExists) {
      await client.query(
        `CREATE TABLE ${table} (
           project_id text COLLATE "C" NOT NULL, live boolean NOT NULL, id text COLLATE "C" NOT NULL,
           created_at text COLLATE "C" NOT NULL, updated_at text COLLATE "C" NOT NULL,
           k0 text COLLATE "C", k1 text COLLATE "C", k2 text COLLATE "C", k3 text COLLATE "C",
           lng double precision, lat double precision, due_at text COLLATE "C", doc jsonb NOT NULL,
           ${spec.versioned ? `${REV_COLUMN},` : ''}
           ${spatial ? `${geomColumn},` : ''}
           ${volatile ? `${coarseColumns.join(', ')},` : ''}
           PRIMARY KEY (project_id, live, id))${volatile ? ` WITH (fillfactor = ${VOLATILE_FILLFACTOR})` : ''}`,
      );
    } else if (addGeom) {
      await client.query(`ALTER TABLE ${table} ADD COLUMN ${geomColumn}`);
    }
    // Adding stored generated columns rewrites the table (once, when the collection becomes volatile).
    if (addCoarse || dropGeom) {
      const actions = [
        ...(addCoarse ? coarseColumns.map((c) => `ADD COLUMN ${c}`) : []),
        ...(dropGeom ? ['DROP COLUMN geom'] : []),
        `SET (fillfactor = ${VOLATILE_FILLFACTOR})`,
      ];
      await client.query(`ALTER TABLE ${table} ${actions.join(', ')}`);
    }
    if (dropCoarse) await client.query(`ALTER TABLE ${table} ${COARSE_COLUMNS.map((c) => `DROP COLUMN IF EXISTS ${c}`).join(', ')}, RESET (fillfactor)`);
    // With a constant default PostgreSQL adds the column without rewriting the table.
    if (addRev) await client.query(`ALTER TABLE ${table} ADD COLUMN ${REV_COLUMN}`);
    if (legacy) {
      // Rows are moved before the indexes are built: one sort per index instead of one insert per row.
      await client.query(
        `INSERT INTO ${table} (${TABLE_COLUMNS}) SELECT ${TABLE_COLUMNS} FROM ${opts.schema}.docs WHERE collection = $1
         ON CONFLICT (project_id, live, id) DO NOTHING`,
        [collection],
      );
      await client.query(`DELETE FROM ${opts.schema}.docs WHERE collection = $1`, [collection]);
    }
    for (const index of missing) {
      if (!index.unique) {
        await client.query(createIndexSql(table, index));
        continue;
      }
      // A failed statement aborts the transaction; the savepoint keeps the rest of it.
      await client.query('SAVEPOINT unique_index');
      try {
        await client.query(createIndexSql(table, index));
        await client.query('RELEASE SAVEPOINT unique_index');
      } catch (err) {
        await client.query('ROLLBACK TO SAVEPOINT unique_index');
        // Duplicates written before the rule existed: keep serving and say so (logged at start-up).
        warnings.push(`${collection}.${index.field} is not enforced unique: existing duplicates (${errorText(err)})`);
      }
    }
    if (needGeomIndex) await client.query(`CREATE INDEX IF NOT EXISTS ${geomIndex} ON ${table} USING gist (geom) WHERE geom IS NOT NULL`);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
  return { table, uniqueIndexes, warnings };
}
