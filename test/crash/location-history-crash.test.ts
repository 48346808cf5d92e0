// Crash test of the location history, on SQLite and (with DATABASE_URL) PostgreSQL: devices walk north as
// fast as the gateway (a child process built with tsc) answers, each step far enough to be worth an entry,
// and the gateway is killed with SIGKILL twice in the middle of it and restarted on the same store. Every
// acknowledged update must have its entry afterwards, at the position and time the answer gave: the entry
// is written in the update's own atomic write, not after it. Entries of updates whose answer the kill cut
// off may be there too (committed, not acknowledged); no entry may be at a position never sent.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DATABASE_URL, dropSchemas, freshSchemaName } from '../adapters/store-postgres-support';
import { announceSkip, envVar } from '../support/requires';
import {
  buildGateway, freePort, killGateway as kill, parseTestKeys as parseKeys, startGateway as startProcess,
  type GatewayBuild, type GatewayProcess as Gateway,
} from '../support/gateway-process';

const START = { lat: 40.7, lng: -74.0 };
/** About 22 m a step: every update moves, so every one is worth an entry. */
const STEP = 0.0002;
const DEVICES = 6;

jest.setTimeout(300_000);

let build: GatewayBuild;
const schemas: string[] = [];
const stores: Array<[string, () => Record<string, string>]> = [['sqlite', () => ({})]];
if (DATABASE_URL) {
  stores.push(['postgres', () => {
    const schema = freshSchemaName();
    schemas.push(schema);
    return { WAYMARK_STORE: 'postgres', DATABASE_URL: DATABASE_URL as string, WAYMARK_DATABASE_SCHEMA: schema };
  }]);
} else {
  announceSkip('the location history crash test on PostgreSQL', envVar('DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/test'));
}

let current: Gateway | undefined;
beforeAll(() => {
  build = buildGateway();
});
afterAll(async () => {
  if (current) await kill(current);
  build?.remove();
  await dropSchemas(schemas);
});

interface Acked {
  step: number;
  updatedAt: string;
}

test.each(stores)('%s: SIGKILL during updates loses no acknowledged update\'s history entry', async (_store, storeEnvOf) => {
  const storeEnv = storeEnvOf();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-history-crash-'));
  const start = () => startProcess(build, port, { ...storeEnv, WAYMARK_DATA_DIR: dataDir });
  current = await start();
  const { pk, sk } = parseKeys(current.output.join(''));
  // Answers are JSON documents read field by field below.
  const call = async (method: string, urlPath: string, key: string, body?: unknown): Promise<{ status: number; json: any }> => {
    const res = await fetch(base + urlPath, { method, headers: { authorization: key, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, json: await res.json() };
  };

  const acked: Acked[][] = Array.from({ length: DEVICES }, () => []);
  let flowing = true;
  const device = async (n: number): Promise<void> => {
    for (let step = 0; flowing; step++) {
      try {
        const r = await call('POST', '/v1/track', pk, { deviceId: `walker-${n}`, userId: `walker-${n}`, latitude: START.lat + step * STEP, longitude: START.lng + n * 0.01, accuracy: 5 });
        if (r.status === 200) acked[n].push({ step, updatedAt: r.json.user.updatedAt });
      } catch {
        // The gateway is down (killed): not acknowledged. The next step goes elsewhere.
        await new Promise((res) => setTimeout(res, 20));
      }
    }
  };
  const total = () => acked.reduce((sum, a) => sum + a.length, 0);
  const waitForAcks = async (count: number): Promise<void> => {
    const deadline = Date.now() + 60_000;
    while (total() < count) {
      if (Date.now() > deadline) throw new Error(`only ${total()} acknowledged updates`);
      await new Promise((res) => setTimeout(res, 10));
    }
  };
  const devices = Array.from({ length: DEVICES }, (_, n) => device(n));
  for (const target of [150, 300]) {
    await waitForAcks(target);
    await kill(current);
    current = await start();
  }
  await waitForAcks(total() + 50);
  flowing = false;
  await Promise.all(devices);

  for (let n = 0; n < DEVICES; n++) {
    const r = await call('GET', `/v1/users/walker-${n}/locations?limit=1000`, sk);
    expect(r.status).toBe(200);
    const entries = r.json.locations as Array<{ createdAt: string; location: { coordinates: [number, number] } }>;
    const stepOf = (lat: number) => Math.round((lat - START.lat) / STEP);
    const stored = new Map(entries.map((e) => [stepOf(e.location.coordinates[1]), e.createdAt]));
    // Every acknowledged update is there, at its time; nothing is at a step never sent.
    expect(acked[n].filter((a) => stored.get(a.step) !== a.updatedAt)).toEqual([]);
    const lastSent = Math.max(...acked[n].map((a) => a.step)) + 1;
    expect([...stored.keys()].filter((step) => step < 0 || step > lastSent)).toEqual([]);
    expect(entries.length).toBeGreaterThanOrEqual(acked[n].length);
  }
  await kill(current);
  current = undefined;
});
