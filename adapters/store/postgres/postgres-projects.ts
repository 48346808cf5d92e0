// Projects and their API keys in PostgreSQL; the same rows and orderings as the SQLite repository.
import type { Pool, PoolClient } from 'pg';
import type { ApiKeyRecord, KeyKind, ProjectRecord, ProjectRepository } from '../../../ports/store';
import { inTransaction } from './transaction';
import { CHANGE_CHANNEL } from './change-channel';

interface ProjectRow {
  id: string;
  name: string;
  created_at: string;
  settings: Record<string, unknown>;
}

interface KeyRow {
  hash: string;
  project_id: string;
  live: boolean;
  kind: KeyKind;
  display: string;
  created_at: string;
}

export class PostgresProjects implements ProjectRepository {
  private readonly projectsTable: string;
  private readonly keysTable: string;

  /** `schema` is already quoted. */
  /** `notice` makes the change notice of a project (see change-channel.ts), sent with its key and settings changes. */
  constructor(private readonly pool: Pool, schema: string, private readonly notice: (projectId: string) => string) {
    this.projectsTable = `${schema}.projects`;
    this.keysTable = `${schema}.api_keys`;
  }

  async create(project: ProjectRecord, keys: ApiKeyRecord[]): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      await client.query(`INSERT INTO ${this.projectsTable} (id, name, created_at, settings) VALUES ($1, $2, $3, $4)`, [
        project._id, project.name, project.createdAt, JSON.stringify(project.settings),
      ]);
      await this.insertKeys(client, keys);
    });
  }

  private async insertKeys(client: PoolClient, keys: ApiKeyRecord[]): Promise<void> {
    for (const k of keys) {
      await client.query(
        `INSERT INTO ${this.keysTable} (hash, project_id, live, kind, display, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
        [k.hash, k.projectId, k.live, k.kind, k.display, k.createdAt],
      );
    }
  }

  async list(): Promise<ProjectRecord[]> {
    const r = await this.pool.query<ProjectRow>(`SELECT * FROM ${this.projectsTable} ORDER BY created_at, id`);
    return r.rows.map(projectFromRow);
  }

  async get(id: string): Promise<ProjectRecord | undefined> {
    const r = await this.pool.query<ProjectRow>(`SELECT * FROM ${this.projectsTable} WHERE id = $1`, [id]);
    return r.rows[0] ? projectFromRow(r.rows[0]) : undefined;
  }

  async keys(projectId: string): Promise<ApiKeyRecord[]> {
    const r = await this.pool.query<KeyRow>(`SELECT * FROM ${this.keysTable} WHERE project_id = $1 ORDER BY kind, live`, [projectId]);
    return r.rows.map(keyFromRow);
  }

  async keyByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    const r = await this.pool.query<KeyRow>(`SELECT * FROM ${this.keysTable} WHERE hash = $1`, [hash]);
    return r.rows[0] ? keyFromRow(r.rows[0]) : undefined;
  }

  async replaceKeys(projectId: string, keys: ApiKeyRecord[]): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      await client.query(`DELETE FROM ${this.keysTable} WHERE project_id = $1`, [projectId]);
      await this.insertKeys(client, keys);
      await client.query('SELECT pg_notify($1, $2)', [CHANGE_CHANNEL, this.notice(projectId)]);
    });
  }

  async updateSettings(projectId: string, settings: Record<string, unknown>): Promise<void> {
    // One statement, so the notice goes out with the update's commit.
    await this.pool.query(
      `WITH changed AS (UPDATE ${this.projectsTable} SET settings = $1 WHERE id = $2 RETURNING id) SELECT pg_notify($3, $4) FROM changed`,
      [JSON.stringify(settings), projectId, CHANGE_CHANNEL, this.notice(projectId)],
    );
  }
}

function projectFromRow(r: ProjectRow): ProjectRecord {
  return { _id: r.id, name: r.name, createdAt: r.created_at, settings: r.settings };
}

function keyFromRow(r: KeyRow): ApiKeyRecord {
  return { hash: r.hash, projectId: r.project_id, live: r.live, kind: r.kind, display: r.display, createdAt: r.created_at };
}
