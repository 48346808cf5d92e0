// One transaction on one pooled connection: COMMIT when `fn` resolves, ROLLBACK when it throws.
import type { Pool, PoolClient } from 'pg';

export async function inTransaction<T>(pool: Pool, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    client.release();
    return result;
  } catch (err) {
    try {
      await client.query('ROLLBACK');
      client.release();
    } catch (rollbackErr) {
      // The connection is unusable (server gone, protocol error): destroy it rather than hand it back.
      client.release(rollbackErr as Error);
    }
    throw err;
  }
}
