// The stores a concurrency or hostile-input test runs on: SQLite always, PostgreSQL when DATABASE_URL
// is set (each server in a fresh schema, dropped after the file). Use with describe.each.
import type { GatewayConfig } from '../../server/config';
import { DATABASE_URL, dropSchemas, freshSchemaName } from '../adapters/store-postgres-support';
import { announceSkip, envVar } from './requires';

export function eachStore(group: string): Array<[string, () => Partial<GatewayConfig>]> {
  const schemas: string[] = [];
  const stores: Array<[string, () => Partial<GatewayConfig>]> = [['sqlite', () => ({})]];
  if (DATABASE_URL) {
    stores.push(['postgres', () => {
      const schema = freshSchemaName();
      schemas.push(schema);
      return { store: 'postgres', databaseUrl: DATABASE_URL, databaseSchema: schema };
    }]);
  } else {
    announceSkip(`${group} on PostgreSQL`, envVar('DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/test'));
  }
  afterAll(() => dropSchemas(schemas));
  return stores;
}
