// A re-import swapped in while the gateway serves every mode: the new import's foot.bin is made a named
// pipe, so the reload's foot read is held for as long as the test wants (no timing in it). While it is
// held, a foot request must wait or get a 503 with Retry-After, never a 400 saying its points are not
// connected, nor an answer from the let-go graph that says otherwise; car, whose graph is read by then,
// answers from the new files; once the pipe is written, foot answers as it did before the swap.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { runImport } from '../../importers/osm/import-pipeline';
import { RoutingStage } from '../../importers/osm/stages/routing/routing-stage';
import { OSM, fixturesPresent } from './support';
import { startTestServer, tempDataDir, type TestServer } from '../support/server';

const MONACO = 'monaco-osrm.osm.pbf';
const present = fixturesPresent('a mode read during a reload', path.join(OSM, MONACO));
const CASINO = '43.7392,7.4277';
const PALACE = '43.7311,7.4197';
const MODES = ['car', 'truck', 'bike', 'foot'] as const;
type Mode = (typeof MODES)[number];

(present ? describe : describe.skip)('a mode whose graph is being read during a reload', () => {
  const dataDir = tempDataDir();
  let server: TestServer | undefined;
  let pipe: string | undefined;
  afterAll(async () => {
    // A failed test must not leave the gateway's read blocked on the pipe.
    if (pipe) {
      try {
        fs.closeSync(fs.openSync(pipe, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK));
      } catch {
        // Nobody reads it any more.
      }
    }
    await server?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('waits or answers 503 while its file is read, never 400; answers as before once read', async () => {
    await runImport({ file: path.join(OSM, MONACO), name: 'region', dataDir, stages: [new RoutingStage()] });
    server = await startTestServer({ dataDir, extracts: { reloadCheckMs: 0, loadWaitMs: 0 } });
    const s = server;
    const ask = (mode: Mode) => s.request('GET', '/v1/route/distance', { key: s.keys.testPk, query: { origin: CASINO, destination: PALACE, modes: mode, units: 'metric' } });
    /** Asks until the mode answers other than 503 (its graph read on the first request). */
    const settled = async (mode: Mode) => {
      let answer = await ask(mode);
      for (let tries = 0; answer.status === 503 && tries < 6000; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        answer = await ask(mode);
      }
      return answer;
    };
    const before: Record<string, number> = {};
    for (const mode of MODES) {
      const answer = await settled(mode);
      expect(answer.status).toBe(200);
      expect(answer.body.routes[mode].estimate).toBeUndefined();
      before[mode] = answer.body.routes[mode].distance.value;
    }

    // The same import under a new import time, its foot.bin a pipe, swapped in with an import's two renames.
    const extracts = path.join(dataDir, 'extracts');
    const staging = path.join(extracts, '.staging-region');
    fs.cpSync(path.join(extracts, 'region'), staging, { recursive: true });
    const manifestFile = path.join(staging, 'extract.json');
    const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as { importedAt: string };
    manifest.importedAt = new Date(Date.parse(manifest.importedAt) + 60_000).toISOString();
    fs.writeFileSync(manifestFile, JSON.stringify(manifest, null, 2) + '\n');
    pipe = path.join(staging, 'routing', 'foot.bin');
    const footBytes = fs.readFileSync(pipe);
    fs.rmSync(pipe);
    execFileSync('mkfifo', [pipe]);
    const old = path.join(extracts, `.old-region-${process.pid}`);
    fs.renameSync(path.join(extracts, 'region'), old);
    fs.renameSync(staging, path.join(extracts, 'region'));
    pipe = path.join(extracts, 'region', 'routing', 'foot.bin');
    // Opening the write end waits for the gateway to open the read end (when it opens the new network).
    const writer = fs.promises.open(pipe, 'w');

    // Until the reload is held on foot's read: every foot answer is the route or a 503, nothing else.
    const statuses = new Map<string, number>();
    const held = async (): Promise<boolean> => {
      const ready = await s.request('GET', '/ready');
      return ready.status === 503 && String(ready.body.checks.routing.detail).includes('the foot graph of region');
    };
    for (let tries = 0; !(await held()); tries++) {
      if (tries > 6000) throw new Error('the reload never came to read foot');
      const answer = await ask('foot');
      const seen = answer.status === 200 ? `200 ${answer.body.routes.foot.distance.value === before.foot ? 'same' : 'other'}` : String(answer.status);
      statuses.set(seen, (statuses.get(seen) ?? 0) + 1);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    fs.rmSync(old, { recursive: true, force: true });
    expect([...statuses.keys()].filter((k) => k !== '200 same' && k !== '503')).toEqual([]);

    // Held: foot is being read, so it waits (0 ms here) and answers 503 with Retry-After; car answers from the new files.
    for (let i = 0; i < 3; i++) {
      const foot = await ask('foot');
      expect(foot.status).toBe(503);
      expect(foot.headers.get('retry-after')).toBe('2');
      expect(foot.body.meta.message).toMatch(/still loading/);
    }
    const car = await ask('car');
    expect(car.status).toBe(200);
    expect(car.body.routes.car.distance.value).toBe(before.car);

    const fd = await writer;
    await fd.writeFile(footBytes);
    await fd.close();
    const foot = await settled('foot');
    expect(foot.status).toBe(200);
    expect(foot.body.routes.foot.estimate).toBeUndefined();
    expect(foot.body.routes.foot.distance.value).toBe(before.foot);
    expect((await s.request('GET', '/ready')).status).toBe(200);
  }, 300_000);
});
