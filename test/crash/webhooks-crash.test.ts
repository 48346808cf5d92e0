// Crash test of the track path and the webhook outbox, on SQLite and (with DATABASE_URL) PostgreSQL. The
// gateway runs as a child process (built with tsc); devices send track updates without pause while a
// flaky receiver (500s, answers slower than the delivery timeout) keeps deliveries pending. The gateway
// is killed with SIGKILL twice in the middle of it and restarted on the same store. Every event of an
// acknowledged track update must be stored and reach the receiver at least once, for a single-mode and
// a batched webhook alike; no device may end up with two users or with two entries in a row.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startReceiver, type Answer, type Received, type TestReceiver } from '../api/webhooks-receiver';
import { DATABASE_URL, dropSchemas, freshSchemaName } from '../adapters/store-postgres-support';
import { announceSkip, envVar } from '../support/requires';
import {
  buildGateway, freePort, killGateway as kill, parseTestKeys as parseKeys, startGateway as startProcess,
  type GatewayBuild, type GatewayProcess as Gateway,
} from '../support/gateway-process';

const CAFE = { lat: 40.7831, lng: -73.9712 };
const AWAY = { lat: 40.77, lng: -73.98 };
const DEVICES = 8;

jest.setTimeout(480_000);

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
  announceSkip('the SIGKILL crash test on PostgreSQL', envVar('DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/test'));
}

function startGateway(port: number, dataDir: string, storeEnv: Record<string, string>): Promise<Gateway> {
  return startProcess(build, port, {
    ...storeEnv,
    WAYMARK_DATA_DIR: dataDir,
    WAYMARK_WEBHOOK_ALLOW_PRIVATE: 'true',
    WAYMARK_WEBHOOK_POLL_MS: '50',
    WAYMARK_WEBHOOK_TIMEOUT_MS: '800',
    WAYMARK_WEBHOOK_BACKOFF_BASE_MS: '40',
    WAYMARK_WEBHOOK_BACKOFF_MAX_MS: '200',
    WAYMARK_WEBHOOK_MAX_ATTEMPTS: '1000',
    WAYMARK_WEBHOOK_CACHE_MS: '200',
  });
}

let receiver: TestReceiver;
let current: Gateway | undefined;

beforeAll(() => {
  build = buildGateway();
});

afterAll(async () => {
  if (current) await kill(current);
  await receiver?.close();
  build?.remove();
  await dropSchemas(schemas);
});

function idsOf(r: Received): string[] {
  if (!r.json) return [];
  return r.json.events ? r.json.events.map((e: { _id: string }) => e._id) : [r.json.event._id];
}

/** Flaky receiver: one request in five fails with 500, one in forty answers after the delivery timeout. */
function flakyScript(length: number): Answer[] {
  return Array.from({ length }, (_, i) => (i % 40 === 17 ? { status: 200, delayMs: 1200 } : i % 5 === 0 ? { status: 500 } : { status: 200 }));
}

/** Requests the gateway saw acknowledged: a 2xx answered in time. */
function acknowledged(r: Received): boolean {
  return r.answer.status >= 200 && r.answer.status < 300 && r.answer.delayMs === undefined;
}

test.each(stores)('%s: SIGKILL while deliveries are pending and updates are flowing loses no acknowledged event and doubles no entry', async (_store, storeEnvOf) => {
  const storeEnv = storeEnvOf();
  await receiver?.close();
  receiver = await startReceiver();
  receiver.script = flakyScript(100_000);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-crash-data-'));

  current = await startGateway(port, dataDir, storeEnv);
  const { pk, sk } = parseKeys(current.output.join(''));
  // Response bodies are JSON documents of several shapes, read field by field below.
  const call = async (method: string, urlPath: string, key: string, body?: unknown): Promise<{ status: number; json: any }> => {
    const res = await fetch(base + urlPath, { method, headers: { authorization: key, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, json: await res.json() };
  };
  // Two geofences, so that every entry and exit makes two requests to the single-mode webhook: the
  // outbox row of such an update is a bundle (outbox-bundle.ts), and a kill may fall between its parts.
  for (const [id, radius] of [['cafe', 100], ['terrace', 120]] as const) {
    expect((await call('PUT', `/v1/geofences/venue/${id}`, sk, { type: 'circle', coordinates: [CAFE.lng, CAFE.lat], radius, description: id })).status).toBe(200);
  }
  const hookIds: Record<string, string> = {};
  for (const [path_, mode] of [['/single', 'single'], ['/batch', 'batch']]) {
    const created = await call('POST', '/v1/webhooks', sk, { url: receiver.url + path_, mode });
    expect(created.status).toBe(200);
    hookIds[path_] = created.json.webhook._id;
  }

  // Devices walk in and out of the café as fast as the gateway answers; only answered updates count.
  const acked = new Set<string>();
  let refused = 0;
  let flowing = true;
  const device = async (n: number): Promise<void> => {
    let inside = false;
    while (flowing) {
      const where = inside ? AWAY : CAFE;
      try {
        const r = await call('POST', '/v1/track', pk, { deviceId: `dev-${n}`, userId: `user-${n}`, latitude: where.lat, longitude: where.lng, accuracy: 5, foreground: true });
        if (r.status === 200) {
          for (const e of r.json.events as Array<{ _id: string }>) acked.add(e._id);
          inside = !inside;
        }
      } catch {
        // The gateway is down (killed): this update was not acknowledged; try again shortly.
        refused++;
        await new Promise((res) => setTimeout(res, 20));
      }
    }
  };
  const devices = Array.from({ length: DEVICES }, (_, n) => device(n));
  const waitForAcks = async (count: number): Promise<void> => {
    const deadline = Date.now() + 60_000;
    while (acked.size < count) {
      if (Date.now() > deadline) throw new Error(`only ${acked.size} acknowledged events`);
      await new Promise((res) => setTimeout(res, 10));
    }
  };
  const delivered = (p: string): Set<string> => new Set(receiver.received.filter((r) => r.path === p && acknowledged(r)).flatMap(idsOf));
  const pendingAtKills: number[] = [];
  const deliveredAtKills: number[] = [];

  const waitForDeliveries = async (count: number): Promise<void> => {
    const deadline = Date.now() + 60_000;
    while (delivered('/single').size < count) {
      if (Date.now() > deadline) throw new Error(`only ${delivered('/single').size} deliveries`);
      await new Promise((res) => setTimeout(res, 10));
    }
  };
  for (let kill_ = 0; kill_ < 2; kill_++) {
    // Kill only once deliveries are under way (after a restart: resumed) and updates keep coming.
    await waitForDeliveries(delivered('/single').size + 50);
    await waitForAcks(acked.size + 300);
    const single = delivered('/single');
    pendingAtKills.push([...acked].filter((id) => !single.has(id)).length);
    deliveredAtKills.push(single.size);
    await kill(current);
    current = await startGateway(port, dataDir, storeEnv);
    // Where a run that times out was (the machine may be shared): one line per phase.
    process.stdout.write(`crash test (${_store}): kill ${kill_ + 1} at ${acked.size} acknowledged, ${single.size} delivered to /single\n`);
  }
  await waitForAcks(acked.size + 200);
  flowing = false;
  await Promise.all(devices);

  // The receiver recovers; everything acknowledged must arrive.
  receiver.script = [];
  receiver.fallback = { status: 200 };
  const missing = (p: string): string[] => {
    const got = delivered(p);
    return [...acked].filter((id) => !got.has(id));
  };
  // Thousands are pending after the kills; on a busy machine they take minutes. Wait while deliveries
  // keep arriving: a queue that makes no progress for 30 s is stuck (lost work shows as that), a slow
  // one is not. A fixed 90 s failed once on PostgreSQL beside an import, with 16 batch events still to come:
  // late, not lost. Nothing removes an acknowledged event's row but its delivery (a 2xx read within the
  // deadline, which the receiver's held answers here never are), a dead letter (1,000 attempts or 24 h
  // here) or a deleted webhook's clean-up (none here); the same run passed once it waited for progress.
  const stallMs = 30_000;
  const recoveredAt = Date.now();
  const hardDeadline = recoveredAt + 240_000;
  let lastCount = -1;
  let lastProgress = Date.now();
  const missingAtRecovery = { single: missing('/single').length, batch: missing('/batch').length };
  process.stdout.write(`crash test (${_store}): receiver recovered; missing /single ${missingAtRecovery.single}, /batch ${missingAtRecovery.batch}\n`);
  // When each webhook had everything: a slow catch-up (late) and a stuck queue (lost) look alike at a
  // fixed deadline; these times and the queues below tell them apart.
  const caughtUpAfter: Record<string, number> = {};
  while (missing('/single').length > 0 || missing('/batch').length > 0) {
    const count = delivered('/single').size + delivered('/batch').size;
    if (count > lastCount) {
      lastCount = count;
      lastProgress = Date.now();
    }
    for (const p of ['/single', '/batch']) if (caughtUpAfter[p] === undefined && missing(p).length === 0) caughtUpAfter[p] = Date.now() - recoveredAt;
    if (Date.now() - lastProgress > stallMs || Date.now() > hardDeadline) break;
    await new Promise((res) => setTimeout(res, 200));
  }
  for (const p of ['/single', '/batch']) caughtUpAfter[p] ??= missing(p).length === 0 ? Date.now() - recoveredAt : NaN;
  if (missing('/single').length > 0 || missing('/batch').length > 0) {
    // What the gateway holds for each webhook when something never came: pending rows (late or stuck)
    // or dead letters (given up), against none (lost).
    for (const p of ['/single', '/batch']) {
      const queue = await call('GET', `/v1/webhooks/${hookIds[p]}/queue`, sk);
      process.stdout.write(`crash test: ${p} missing ${missing(p).length}, queue ${JSON.stringify(queue.json)}\n`);
    }
  }

  // The kills really happened with work outstanding, and updates kept arriving around them.
  expect(pendingAtKills.every((n) => n > 0)).toBe(true);
  expect(deliveredAtKills.every((n) => n > 0)).toBe(true);
  expect(refused).toBeGreaterThan(0);
  expect(missing('/single')).toEqual([]);
  expect(missing('/batch')).toEqual([]);

  const singleRequests = receiver.received.filter((r) => r.path === '/single' && acknowledged(r)).flatMap(idsOf);
  // Nothing was sent that was not committed: every event that reached the receiver is a stored event.
  const everReceived = new Set(receiver.received.flatMap(idsOf));
  const unknown: string[] = [];
  for (const id of everReceived) if ((await call('GET', `/v1/events/${id}`, sk)).status !== 200) unknown.push(id);
  expect(unknown).toEqual([]);

  // No twins and no doubled entry (per device and geofence). An update committed just before a kill was
  // never answered, so its device sends the same place again; the stored user is already inside and
  // nothing is entered twice.
  const users = await call('GET', '/v1/users?limit=100', sk);
  expect((users.json.users as Array<{ deviceId: string }>).map((u) => u.deviceId).sort()).toEqual(Array.from({ length: DEVICES }, (_, n) => `dev-${n}`).sort());
  const byDevice = new Map<string, Array<{ _id: string; type: string; createdAt: string }>>();
  for (const id of new Set([...acked, ...everReceived])) {
    const { json } = await call('GET', `/v1/events/${id}`, sk);
    const e = json.event as { _id: string; type: string; createdAt: string; user: { deviceId: string }; geofence: { externalId: string } };
    if (!e.type.endsWith('_geofence')) continue;
    const key = `${e.user.deviceId} at ${e.geofence.externalId}`;
    const list = byDevice.get(key) ?? [];
    list.push(e);
    byDevice.set(key, list);
  }
  const doubled: string[] = [];
  for (const [deviceId, list] of byDevice) {
    list.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a._id.localeCompare(b._id));
    list.forEach((e, i) => {
      if (i > 0 && list[i - 1].type === e.type) doubled.push(`${deviceId}: ${e.type} twice (${list[i - 1]._id}, ${e._id})`);
    });
  }
  expect(doubled).toEqual([]);
  expect(byDevice.size).toBe(DEVICES * 2);
  process.stdout.write(
    `crash test (${_store}): ${acked.size} acknowledged events; at the kills delivered/pending: ${deliveredAtKills.map((d, i) => `${d}/${pendingAtKills[i]}`).join(', ')}; ` +
    `${refused} updates refused while down; missing when the receiver recovered: single ${missingAtRecovery.single}, batch ${missingAtRecovery.batch}, ` +
    `all received ${(caughtUpAfter['/single'] / 1000).toFixed(1)} s and ${(caughtUpAfter['/batch'] / 1000).toFixed(1)} s later; single webhook: ${singleRequests.length} requests for ` +
    `${new Set(singleRequests).size} distinct events acknowledged (${singleRequests.length - new Set(singleRequests).size} acknowledged twice: resent after a kill or a late answer)\n`,
  );
  await kill(current);
  current = undefined;
  fs.rmSync(dataDir, { recursive: true, force: true });
});
