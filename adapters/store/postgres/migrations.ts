// Versioned schema changes for the PostgreSQL store, applied in order inside one transaction each. Never
// edit a shipped entry; append a new one. Entries that need PostGIS are applied only once the extension is
// present, so a database that gains PostGIS later picks up the spatial index on the next start.
//
// Collections' tables are not migrations: define() creates each from its declaration (collection-schema.ts)
// and moves its rows out of `docs`, where versions before them kept every collection.
//
// Every text column that is compared or sorted uses COLLATE "C": byte order, the same as SQLite's BINARY,
// so ids, cursors and ISO timestamps order identically on both stores whatever the database's locale.

export interface MigrationNames {
  /** The quoted schema holding Waymark's tables, e.g. `"waymark"`. */
  schema: string;
  /** The quoted schema where the postgis extension lives; set only for entries that need it. */
  postgis?: string;
}

export interface PostgresMigration {
  version: number;
  name: string;
  needs?: 'postgis';
  sql(names: MigrationNames): string;
}

export const POSTGIS_MIGRATION_VERSION = 2;

export const MIGRATIONS: readonly PostgresMigration[] = [
  {
    version: 1,
    name: 'projects, keys and documents',
    sql: ({ schema: s }) => `
      CREATE TABLE ${s}.projects (
        id text COLLATE "C" PRIMARY KEY,
        name text NOT NULL,
        created_at text COLLATE "C" NOT NULL,
        settings jsonb NOT NULL DEFAULT '{}'
      );
      CREATE TABLE ${s}.api_keys (
        hash text COLLATE "C" PRIMARY KEY,
        project_id text COLLATE "C" NOT NULL REFERENCES ${s}.projects(id) ON DELETE CASCADE,
        live boolean NOT NULL,
        kind text COLLATE "C" NOT NULL,
        display text NOT NULL,
        created_at text COLLATE "C" NOT NULL
      );
      CREATE INDEX api_keys_project ON ${s}.api_keys (project_id);

      -- Every collection shares this table; k0..k3 hold the collection's declared key fields in order.
      CREATE TABLE ${s}.docs (
        collection text COLLATE "C" NOT NULL,
        project_id text COLLATE "C" NOT NULL,
        live boolean NOT NULL,
        id text COLLATE "C" NOT NULL,
        created_at text COLLATE "C" NOT NULL,
        updated_at text COLLATE "C" NOT NULL,
        k0 text COLLATE "C", k1 text COLLATE "C", k2 text COLLATE "C", k3 text COLLATE "C",
        lng double precision, lat double precision,
        due_at text COLLATE "C",
        doc jsonb NOT NULL,
        PRIMARY KEY (collection, project_id, live, id)
      );
      -- id is part of the sort indexes because list() breaks ties on it: the whole ORDER BY is then an
      -- index scan, forwards or backwards.
      CREATE INDEX docs_updated ON ${s}.docs (collection, project_id, live, updated_at, id);
      CREATE INDEX docs_created ON ${s}.docs (collection, project_id, live, created_at, id);
      CREATE INDEX docs_k0 ON ${s}.docs (collection, project_id, live, k0) WHERE k0 IS NOT NULL;
      CREATE INDEX docs_k1 ON ${s}.docs (collection, project_id, live, k1) WHERE k1 IS NOT NULL;
      CREATE INDEX docs_k2 ON ${s}.docs (collection, project_id, live, k2) WHERE k2 IS NOT NULL;
      CREATE INDEX docs_k3 ON ${s}.docs (collection, project_id, live, k3) WHERE k3 IS NOT NULL;
      CREATE INDEX docs_point ON ${s}.docs (collection, project_id, live, lat, lng) WHERE lat IS NOT NULL;
      CREATE INDEX docs_due ON ${s}.docs (collection, due_at) WHERE due_at IS NOT NULL;
    `,
  },
  {
    version: POSTGIS_MIGRATION_VERSION,
    name: 'PostGIS point column with a GiST index',
    needs: 'postgis',
    // A planar geometry in EPSG:4326 rather than geography: within() takes a lng/lat box, and only a planar
    // box has the same edges (parallels and meridians) as the lat/lng comparison SQLite makes. The column is
    // generated from lng/lat so writers never have to know whether PostGIS is there. The lat/lng btree goes:
    // users are rewritten on every track, and one spatial index per row is enough.
    sql: ({ schema: s, postgis: g }) => `
      ALTER TABLE ${s}.docs ADD COLUMN geom ${g}.geometry(Point, 4326)
        GENERATED ALWAYS AS (
          CASE WHEN lng IS NULL OR lat IS NULL THEN NULL ELSE ${g}.ST_SetSRID(${g}.ST_MakePoint(lng, lat), 4326) END
        ) STORED;
      CREATE INDEX docs_geom ON ${s}.docs USING gist (geom) WHERE geom IS NOT NULL;
      DROP INDEX ${s}.docs_point;
    `,
  },
  {
    version: 3,
    name: 'revision conflicts raised from inside a write',
    // A write is one statement (write-plan.ts); a put whose expected revision no longer matches must make
    // that whole statement apply nothing. Plain SQL cannot fail a statement on a condition, a function
    // can: the plan calls this one when a checked put touched no row, with an SQLSTATE of our own
    // (REVISION_CONFLICT_SQLSTATE) so the store tells it apart from every other failure.
    sql: ({ schema: s }) => `
      CREATE OR REPLACE FUNCTION ${s}.revision_conflict(detail text) RETURNS integer LANGUAGE plpgsql VOLATILE AS $fn$
      BEGIN
        RAISE EXCEPTION 'revision conflict: %', detail USING ERRCODE = 'WMREV';
      END
      $fn$;
    `,
  },
];

/** The SQLSTATE of `revision_conflict()` (migration 3). */
export const REVISION_CONFLICT_SQLSTATE = 'WMREV';
