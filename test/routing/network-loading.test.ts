// The gateway listens before its road networks are read: a route near an extract still being read waits
// for it (up to WAYMARK_EXTRACTS_LOAD_WAIT_MS) or fails with a 503 and Retry-After, /ready says what is
// being read, and once the file is read the same route is answered. The network file is made a named
// pipe, so the test decides when the gateway's read can end (no timing in it).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { runImport } from '../../importers/osm/import-pipeline';
import { RoutingStage } from '../../importers/osm/stages/routing/routing-stage';
import { OSM, fixturesPresent } from './support';
import { startTestServer, tempDataDir, type TestServer } from '../support/server';

const MONACO = 'monaco-osrm.osm.pbf';
const present = fixturesPresent('road networks read after listening', path.join(OSM, MONACO));
const CASINO = '43.7392,7.4277';
const PALACE = '43.7311,7.4197';

/** An extract whose network.bin is a named pipe; returns the file's real bytes, for the test to write into it. */
async function extractBehindPipe(dataDir: string): Promise<{ pipe: string; bytes: Buffer }> {
  await runImport({ file: path.join(OSM, MONACO), name: 'region', dataDir, stages: [new RoutingStage()] });
  const pipe = path.join(dataDir, 'extracts', 'region', 'routing', 'network.bin');
  const bytes = fs.readFileSync(pipe);
  fs.rmSync(pipe);
  execFileSync('mkfifo', [pipe]);
  return { pipe, bytes };
}

/** Ends a read still blocked on the pipe (a failed test must not leave the gateway's read hanging). */
function unblock(pipe: string): void {
  try {
    fs.closeSync(fs.openSync(pipe, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK));
  } catch {
    // Nobody reads it any more.
  }
}

(present ? describe : describe.skip)('road networks read after the gateway listens', () => {
  const dirs: string[] = [];
  const servers: TestServer[] = [];
  const pipes: string[] = [];
  afterAll(async () => {
    for (const pipe of pipes) unblock(pipe);
    for (const s of servers) await s.close();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  const route = (server: TestServer, origin: string, destination: string) =>
    server.request('GET', '/v1/route/distance', { key: server.keys.testPk, query: { origin, destination, modes: 'car', units: 'metric' } });

  test('503 with Retry-After and not ready while the network is read, routed once it is', async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const { pipe, bytes } = await extractBehindPipe(dataDir);
    pipes.push(pipe);
    const server = await startTestServer({ dataDir, extracts: { reloadCheckMs: 0, loadWaitMs: 0 } });
    servers.push(server);

    const ready = await server.request('GET', '/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.checks.routing).toMatchObject({ ok: false, detail: expect.stringContaining('road network of region') });
    const waiting = await route(server, CASINO, PALACE);
    expect(waiting.status).toBe(503);
    expect(waiting.headers.get('retry-after')).toBe('2');
    expect(waiting.body.meta.message).toMatch(/still loading/);
    // Points no extract being read lies near are not held up: the straight-line estimate answers.
    const elsewhere = await route(server, '39.2904,-76.5800', '39.2990,-76.5700');
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.body.routes.car.estimate).toBe(true);

    await fs.promises.writeFile(pipe, bytes);
    let answer = await route(server, CASINO, PALACE);
    for (let tries = 0; answer.status === 503 && tries < 600; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      answer = await route(server, CASINO, PALACE);
    }
    expect(answer.status).toBe(200);
    expect(answer.body.routes.car.estimate).toBeUndefined();
    expect(answer.body.routes.car.distance.value).toBeGreaterThan(500);
    expect((await server.request('GET', '/ready')).status).toBe(200);
  }, 300_000);

  test('a point inside the box being read but far from its roads gets, after the wait, what it gets once read', async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const { pipe, bytes } = await extractBehindPipe(dataDir);
    pipes.push(pipe);
    const server = await startTestServer({ dataDir, extracts: { reloadCheckMs: 0, loadWaitMs: 600_000 } });
    servers.push(server);
    const manifest = JSON.parse(fs.readFileSync(path.join(dataDir, 'extracts', 'region', 'extract.json'), 'utf8')) as { bbox: [number, number, number, number] };
    // At sea, inside the box's margin: more than 1 km from every road of the extract.
    const sea = `${((manifest.bbox[1] + manifest.bbox[3]) / 2).toFixed(5)},${(manifest.bbox[2] + 0.015).toFixed(5)}`;
    const asked = { isochrone: false, route: false };
    const route = (async () => {
      const answer = await server.request('GET', '/v1/route/distance', { key: server.keys.testPk, query: { origin: sea, destination: CASINO, modes: 'car', units: 'metric' } });
      asked.route = true;
      return answer;
    })();
    expect((await server.request('GET', '/ready')).status).toBe(503);
    expect(asked.route).toBe(false);
    await fs.promises.writeFile(pipe, bytes);
    const whileRead = await route;
    const onceRead = await server.request('GET', '/v1/route/distance', { key: server.keys.testPk, query: { origin: sea, destination: CASINO, modes: 'car', units: 'metric' } });
    expect(onceRead.status).toBe(200);
    expect(onceRead.body.routes.car.estimate).toBe(true);
    expect(whileRead.status).toBe(onceRead.status);
    expect(whileRead.body.routes).toEqual(onceRead.body.routes);
  }, 300_000);

  test('a request that arrives while the network is read waits for it and is routed', async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const { pipe, bytes } = await extractBehindPipe(dataDir);
    pipes.push(pipe);
    const server = await startTestServer({ dataDir, extracts: { reloadCheckMs: 0, loadWaitMs: 600_000 } });
    servers.push(server);
    let settled = false;
    const pending = route(server, CASINO, PALACE).finally(() => (settled = true));
    // Answered only once the file can be read: still waiting after /ready has answered.
    expect((await server.request('GET', '/ready')).status).toBe(503);
    expect(settled).toBe(false);
    await fs.promises.writeFile(pipe, bytes);
    const answer = await pending;
    expect(answer.status).toBe(200);
    expect(answer.body.routes.car.estimate).toBeUndefined();
  }, 300_000);
});
