// Seeds a data directory with geofences through the gateway's own services (the same code path as the
// API, minus HTTP), so a benchmark can start from 100,000 geofences in seconds.
import { createGateway } from '../../server/app';
import { parseGeofenceInput } from '../../core/input/geofence-input';
import { configFromEnv, type GatewayConfig } from '../../server/config';
import { silentLogger } from '../../ports/logger';
import { geofenceBody, prng } from './metro';

export interface Seeded {
  projectId: string;
  keys: Record<string, string>;
  seedSeconds: number;
  /** Time to load the in-memory index of all seeded geofences from the Store. */
  indexLoadSeconds: number;
}

/** `config` picks another store (PostgreSQL benches); SQLite in `dataDir` by default. */
export async function seedGeofences(dataDir: string, count: number, seed = 42, config: Partial<GatewayConfig> = {}): Promise<Seeded> {
  const services = await createGateway({ ...configFromEnv({}), dataDir, logRequests: false, ...config }, silentLogger());
  const created = await services.shared.projects.create('default');
  const scope = { projectId: created.id, live: false };
  const rnd = prng(seed);
  const started = process.hrtime.bigint();
  const now = new Date();
  const BATCH = 2000;
  for (let i = 0; i < count; i += BATCH) {
    const batch = [];
    for (let j = i; j < Math.min(count, i + BATCH); j++) {
      const body = geofenceBody(j, rnd);
      const input = parseGeofenceInput(body, { mode: 'api' });
      batch.push(services.shared.geofences.build(scope, input, String(body.tag), String(body.externalId), undefined, now));
    }
    await services.shared.geofences.save(scope, batch);
  }
  const seedSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  await services.adapters.store.close();

  // A fresh process-like start: measure loading the index from the Store.
  const again = await createGateway({ ...configFromEnv({}), dataDir, logRequests: false, ...config }, silentLogger());
  const t0 = process.hrtime.bigint();
  const index = await again.shared.geofences.index(scope);
  const indexLoadSeconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (index.size !== count) throw new Error(`seeded ${count} geofences but the index holds ${index.size}`);
  await again.adapters.store.close();
  const keys = Object.fromEntries(created.keys.map((k) => [`${k.record.live ? 'live' : 'test'} ${k.record.kind}`, k.key]));
  return { projectId: created.id, keys, seedSeconds, indexLoadSeconds };
}
