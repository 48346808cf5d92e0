// The Store conformance suite on the PostgreSQL adapter, with PostGIS when the server has it and with the
// plain lat/lng btree. Needs DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres); skips without.
// Each mode works in one throwaway schema; the suite's own ids keep tests apart inside it.
import { PostgresStore } from '../../adapters/store/postgres/postgres-store';
import { storeConformance } from './store-conformance';
import { announceSkip, envVar } from '../support/requires';
import { DATABASE_URL, dropSchemas, freshSchemaName } from './store-postgres-support';

const modes = ['auto', 'btree'] as const;
const schemas = modes.map(() => freshSchemaName());

if (DATABASE_URL) {
  modes.forEach((spatial, i) => {
    storeConformance(`postgres (spatial: ${spatial})`, () => PostgresStore.open({ connectionString: DATABASE_URL as string, schema: schemas[i], spatial, poolSize: 4, lockPoolSize: 4 }));
  });
  afterAll(() => dropSchemas(schemas));
} else {
  announceSkip('Store conformance on PostgreSQL', envVar('DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/test'));
  describe.skip('Store conformance: postgres (DATABASE_URL is unset)', () => {
    test('needs DATABASE_URL', () => undefined);
  });
}
