// Foundation HTTP benchmark: GET /v1/users/:id (by userId) and geofence upserts, against the gateway in
// a child process, with the bare authenticated route for comparison.
//
// Run: npm run bench:build && node dist/bench/foundation.js
// Options (env): USERS (10000), SECONDS (10), CONNECTIONS (32)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startGatewayProcess } from './http/gateway-process';
import { runLoad } from './http/load';
import { prng, randomPoint } from './support/metro';

const USERS = Number(process.env.USERS ?? 10_000);
const SECONDS = Number(process.env.SECONDS ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 32);

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-bench-foundation-'));
  const gw = await startGatewayProcess(dataDir);
  const pk = gw.keys['test publishable'];
  const sk = gw.keys['test secret'];
  const rnd = prng(11);
  console.log(`creating ${USERS} users through POST /v1/track …`);
  let made = 0;
  await runLoad({
    title: 'POST /v1/track (creating users)', url: `${gw.url}/v1/track`, method: 'POST',
    headers: { authorization: pk, 'content-type': 'application/json' },
    setupRequest: (req) => {
      const i = made++ % USERS;
      const [lng, lat] = randomPoint(rnd);
      req.body = JSON.stringify({ deviceId: `device-${i}`, userId: `user-${i}`, latitude: lat, longitude: lng, accuracy: 10 });
      return req;
    },
    durationSeconds: Math.max(3, Math.ceil(USERS / 1000)),
    connections: CONNECTIONS,
  });

  const bare = await runLoad({ title: 'GET /v1/config (bare, authenticated)', url: `${gw.url}/v1/config`, headers: { authorization: pk }, durationSeconds: SECONDS, connections: CONNECTIONS });
  let n = 0;
  const get = await runLoad({
    title: 'GET /v1/users/:id (by userId)', url: `${gw.url}/v1/users/user-0`, headers: { authorization: sk },
    setupRequest: (req) => {
      req.path = `/v1/users/user-${n++ % Math.min(made, USERS)}`;
      return req;
    },
    durationSeconds: SECONDS, connections: CONNECTIONS,
  });
  let g = 0;
  const upsert = await runLoad({
    title: 'PUT /v1/geofences/:tag/:externalId', url: `${gw.url}/v1/geofences/bench/g0`, method: 'PUT',
    headers: { authorization: sk, 'content-type': 'application/json' },
    setupRequest: (req) => {
      const i = g++ % 20_000;
      const [lng, lat] = randomPoint(rnd);
      req.path = `/v1/geofences/bench/g${i}`;
      req.body = JSON.stringify({ description: `Place ${i}`, type: 'circle', coordinates: [lng, lat], radius: 100 + (i % 400), metadata: { i } });
      return req;
    },
    durationSeconds: SECONDS, connections: CONNECTIONS,
  });
  console.log('');
  console.log(`get user / bare        ${(get.requestsPerSecond / bare.requestsPerSecond).toFixed(2)}`);
  console.log(`geofence upsert / bare ${(upsert.requestsPerSecond / bare.requestsPerSecond).toFixed(2)}`);
  console.log(`peak RSS (gateway)     ${gw.peakRssMiB().toFixed(0)} MiB`);
  await gw.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
