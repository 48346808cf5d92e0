// Versioned schema changes, applied in order inside one transaction each. Never edit a shipped entry;
// append a new one.
export const MIGRATIONS: ReadonlyArray<{ version: number; name: string; sql: string }> = [
  {
    version: 1,
    name: 'projects, keys and documents',
    sql: `
      CREATE TABLE projects (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        created_at TEXT NOT NULL,
        settings TEXT NOT NULL DEFAULT '{}'
      );
      CREATE TABLE api_keys (
        hash TEXT PRIMARY KEY,
        project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        live INTEGER NOT NULL,
        kind TEXT NOT NULL,
        display TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX api_keys_project ON api_keys(project_id);

      -- Every collection shares this table; k0..k3 hold the collection's declared key fields in order.
      CREATE TABLE docs (
        collection TEXT NOT NULL,
        project_id TEXT NOT NULL,
        live INTEGER NOT NULL,
        id TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        k0 TEXT, k1 TEXT, k2 TEXT, k3 TEXT,
        lng REAL, lat REAL,
        due_at TEXT,
        doc TEXT NOT NULL,
        PRIMARY KEY (collection, project_id, live, id)
      );
      CREATE INDEX docs_updated ON docs(collection, project_id, live, updated_at);
      CREATE INDEX docs_created ON docs(collection, project_id, live, created_at);
      CREATE INDEX docs_k0 ON docs(collection, project_id, live, k0) WHERE k0 IS NOT NULL;
      CREATE INDEX docs_k1 ON docs(collection, project_id, live, k1) WHERE k1 IS NOT NULL;
      CREATE INDEX docs_k2 ON docs(collection, project_id, live, k2) WHERE k2 IS NOT NULL;
      CREATE INDEX docs_k3 ON docs(collection, project_id, live, k3) WHERE k3 IS NOT NULL;
      CREATE INDEX docs_point ON docs(collection, project_id, live, lat, lng) WHERE lat IS NOT NULL;
      CREATE INDEX docs_due ON docs(collection, due_at) WHERE due_at IS NOT NULL;
    `,
  },
  {
    version: 2,
    name: 'change log between processes',
    // What other processes on the file (the CLI beside a running gateway) must hear about: one row per
    // write of a broadcast collection and scope, and per change of a project's keys or settings
    // (change-log.ts). AUTOINCREMENT: seq never goes back after the oldest rows are pruned, so a reader
    // can tell that rows it never saw were pruned.
    sql: `
      CREATE TABLE change_log (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        at INTEGER NOT NULL,
        node TEXT NOT NULL,
        collection TEXT NOT NULL,
        project_id TEXT,
        live INTEGER,
        ids TEXT
      );
    `,
  },
];
