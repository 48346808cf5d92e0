// A gateway serving a SQLite data directory hears what other processes write to it (issue #29.4): the
// CLI's geofence import fires entries on the running gateway's next tracks within a second, without a
// restart, and keys the CLI rotates stop working on it within a second although it had them cached.
// Two real processes (the gateway and the CLI), one data directory.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  buildGateway, freePort, killGateway, parseTestKeys, runCli, startGateway, type GatewayBuild, type GatewayProcess,
} from '../support/gateway-process';
import { until } from '../support/until';

// Compiling the gateway (tsc) takes over two minutes on a loaded 2-core machine.
jest.setTimeout(300_000);

const SHOP = { lat: 52.52, lng: 13.405 };
/** The promise of the issue: another process's change is seen within this long. */
const WITHIN_MS = 1000;

describe('SQLite: changes made by the CLI beside a running gateway', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-sqlite-changes-'));
  const env = { WAYMARK_STORE: 'sqlite', WAYMARK_DATA_DIR: dataDir };
  let build: GatewayBuild;
  let gateway: GatewayProcess;
  let url: string;
  let keys: { pk: string; sk: string };

  beforeAll(async () => {
    build = buildGateway();
    const port = await freePort();
    gateway = await startGateway(build, port, env);
    keys = parseTestKeys(gateway.output.join(''));
    url = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    if (gateway) await killGateway(gateway, 'SIGTERM');
    build?.remove();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  // Response bodies are JSON documents read field by field.
  const call = async (method: string, urlPath: string, key: string, body?: unknown): Promise<{ status: number; json: any }> => {
    const res = await fetch(url + urlPath, { method, headers: { authorization: key, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, json: await res.json() };
  };
  let device = 0;
  /** A new device tracked at the shop: the types of the events it produced. */
  const firstTrack = async (): Promise<string[]> => {
    const r = await call('POST', '/v1/track', keys.pk, { deviceId: `dev-${device++}`, latitude: SHOP.lat, longitude: SHOP.lng, accuracy: 10 });
    expect(r.status).toBe(200);
    return r.json.events.map((e: { type: string }) => e.type);
  };

  test('geofences imported by the CLI produce entries on the running gateway', async () => {
    // The gateway's index of the environment is loaded (and empty) before the import.
    expect(await firstTrack()).toEqual([]);
    const csv = path.join(dataDir, 'shops.csv');
    fs.writeFileSync(csv, `description,type,tag,externalId,coordinates,radius\nShop,circle,store,shop-1,"[${SHOP.lng},${SHOP.lat}]",200\n`);
    const imported = runCli(build, ['geofences', 'import', csv], env);
    expect(imported.stderr + imported.stdout).toContain('Imported 1 geofences');
    expect(imported.status).toBe(0);
    expect(imported.stdout + imported.stderr).not.toMatch(/restart/);
    await until('the imported geofence on the running gateway', async () => (await firstTrack()).includes('user.entered_geofence'), WITHIN_MS, 50);
    const listed = await call('GET', '/v1/geofences?tag=store', keys.sk);
    expect(listed.json.geofences.map((g: { externalId: string }) => g.externalId)).toEqual(['shop-1']);
  });

  test('keys rotated by the CLI stop working on the running gateway, though it had them cached', async () => {
    expect((await call('GET', '/v1/geofences', keys.sk)).status).toBe(200);
    const rotated = runCli(build, ['project', 'rotate-keys', '--yes', '--json'], env);
    expect(rotated.status).toBe(0);
    await until('the old key refused', async () => (await call('GET', '/v1/geofences', keys.sk)).status === 401, WITHIN_MS, 50);
    const fresh = JSON.parse(rotated.stdout) as { keys: Record<string, string> };
    const newSk = Object.values(fresh.keys).find((k) => k.startsWith('prj_test_sk_')) as string;
    expect((await call('GET', '/v1/geofences', newSk)).status).toBe(200);
  });
});
