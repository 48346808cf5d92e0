// `waymark data import|list|remove`, compiled as `npm run build` does and run as a child process on a
// data directory a real gateway is serving: exit codes, progress and summary, a URL import from a local
// HTTP server, a failed re-import that changes nothing, and the gateway's catalog following along.
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { runImport } from '../../importers/osm/import-pipeline';
import { RoutingStage } from '../../importers/osm/stages/routing/routing-stage';
import { startTestServer, type TestServer } from '../support/server';
import { announceSkip, files as existingFiles } from '../support/requires';

const REPO = path.resolve(__dirname, '..', '..');
const OSM = path.resolve(REPO, '../shared/fixtures/osm');
const present = fs.existsSync(path.join(OSM, 'monaco-osrm.osm.pbf'));
if (!present) announceSkip('data CLI', existingFiles(path.join(OSM, 'monaco-osrm.osm.pbf')));
const withFixtures = present ? describe : describe.skip;

const BUILD_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-data-cli-build-'));
const MAIN = path.join(BUILD_DIR, 'server', 'cli', 'main.js');
const WORK = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-data-cli-'));
const DATA = path.join(WORK, 'data');
/** Imports run every stage (routing contracts four graphs): seconds each on a loaded machine. */
const IMPORT_TIMEOUT_MS = 240_000;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function waymark(args: string[]): Promise<Run> {
  const env = { PATH: process.env.PATH, HOME: os.tmpdir(), NODE_PATH: path.join(REPO, 'node_modules'), WAYMARK_DATA_DIR: DATA };
  return new Promise((resolve) => {
    execFile(process.execPath, [MAIN, ...args], { env, cwd: WORK, timeout: 200_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout, stderr });
    });
  });
}

let server: TestServer | undefined;
let files: http.Server | undefined;
let filesUrl = '';

beforeAll(async () => {
  if (!present) return;
  await new Promise<void>((resolve) => {
    execFile(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', BUILD_DIR], { cwd: REPO }, () => resolve());
  });
  expect(fs.existsSync(MAIN)).toBe(true);
  server = await startTestServer({ dataDir: DATA, extracts: { reloadCheckMs: 0 } });
  // Serves the fixtures, with one redirect and one missing file.
  files = http.createServer((req, res) => {
    if (req.url === '/latest/monaco-latest.osm.pbf') {
      res.writeHead(302, { location: '/files/monaco-osrm.osm.pbf' });
      res.end();
      return;
    }
    const name = (req.url ?? '').replace(/^\/files\//, '');
    const file = path.join(OSM, path.basename(name));
    if (!req.url?.startsWith('/files/') || !fs.existsSync(file)) {
      res.writeHead(404);
      res.end('not here');
      return;
    }
    res.writeHead(200, { 'content-length': fs.statSync(file).size });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => files!.listen(0, '127.0.0.1', resolve));
  filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
}, 240_000);

afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => (files ? files.close(resolve) : resolve(undefined)));
  fs.rmSync(BUILD_DIR, { recursive: true, force: true });
  fs.rmSync(WORK, { recursive: true, force: true });
});

function served(): string[] {
  return server!.running.gateway.adapters.extracts.current().map((e) => `${e.name}:${e.manifest.import?.nodes}`);
}

withFixtures('waymark data', () => {
  test('import a PBF file: progress with counts and rates, a summary, the gateway serves it', async () => {
    expect(served()).toEqual([]);
    const run = await waymark(['data', 'import', path.join(OSM, 'us-md-baltimore-valhalla.osm.pbf'), '--name', 'baltimore']);
    expect(run.stderr).toMatch(/read nodes and ways: 51,385 nodes, 7,230 ways; node index \d+ KiB in \d+\.\d\d s/);
    // Each step with its place among the six, in plain words, with the time since the import started.
    expect(run.stderr).toMatch(/^\[2\/6\] read nodes and ways: 51,385 nodes, .* \(\d+ s since start\)$/m);
    expect(run.stderr).toMatch(/^\[6\/6\] routing: building and contracting the road graph of each mode \d+% · [\d,]+ of [\d,]+ .*car .*foot .* since start$/m);
    expect(run.stdout).toMatch(/^Imported baltimore from .*us-md-baltimore-valhalla\.osm\.pbf in \d+\.\d\d s \(peak memory [\d.]+ MiB\): 51385 nodes, 7230 ways, 167 relations\.$/m);
    // Each step's time and its own peak memory, and the budget the import ran under (the default: a quarter of the machine's memory).
    const budget = `${(Math.floor(os.totalmem() / 4) / 2 ** 30).toFixed(2)} GiB`;
    expect(run.stdout).toMatch(new RegExp(`^  steps \\(wall, peak memory; budget ${budget.replace('.', '\\.')} \\(default: 25 % of this machine's memory\\)\\): read relations \\d+ s, [\\d.]+ MiB; read nodes and ways \\d+ s, [\\d.]+ MiB; geocoding .*; places .*; basemap .*; routing \\d+ s, [\\d.]+ MiB$`, 'm'));
    expect(run.code).toBe(0);
    expect(served()).toEqual(['baltimore:51385']);
  }, IMPORT_TIMEOUT_MS);

  test('the compiled import builds the mode graphs on worker threads, byte for byte as one thread does', async () => {
    // The CLI imported Baltimore above; its graphs are large enough for the worker pool. Under the
    // tests the TypeScript sources have no compiled worker beside them, so this import runs on one thread.
    const manifest = fs.readFileSync(path.join(DATA, 'extracts', 'baltimore', 'extract.json'), 'utf8');
    const threads = (JSON.parse(manifest) as { stages: Record<string, Record<string, number>> }).stages.routing['graph threads'];
    const cores = Math.min(4, os.availableParallelism());
    expect(threads).toBe(cores >= 2 ? cores : 0);
    const single = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-one-thread-'));
    try {
      const result = await runImport({ file: path.join(OSM, 'us-md-baltimore-valhalla.osm.pbf'), name: 'baltimore', dataDir: single, stages: [new RoutingStage()] });
      expect(result.manifest.stages.routing['graph threads']).toBe(0);
      const dir = (root: string): string => path.join(root, 'extracts', 'baltimore', 'routing');
      const names = fs.readdirSync(dir(DATA)).sort();
      expect(fs.readdirSync(dir(single)).sort()).toEqual(names);
      expect(names.length).toBeGreaterThan(4);
      for (const name of names) {
        expect([name, fs.readFileSync(path.join(dir(single), name)).equals(fs.readFileSync(path.join(dir(DATA), name)))]).toEqual([name, true]);
      }
    } finally {
      fs.rmSync(single, { recursive: true, force: true });
    }
  }, IMPORT_TIMEOUT_MS);

  test('a memory budget that holds one mode graph at a time builds them one after another, the same files', async () => {
    // The compiled pipeline in this process (the tests' TypeScript has no worker file beside it), under
    // a budget this process is already past: each graph is started only when the one before is done.
    const modules = path.join(BUILD_DIR, 'node_modules');
    if (!fs.existsSync(modules)) fs.symlinkSync(path.join(REPO, 'node_modules'), modules);
    const compiled = require(path.join(BUILD_DIR, 'importers', 'osm', 'import-pipeline.js')) as typeof import('../../importers/osm/import-pipeline');
    const routing = require(path.join(BUILD_DIR, 'importers', 'osm', 'stages', 'routing', 'routing-stage.js')) as typeof import('../../importers/osm/stages/routing/routing-stage');
    const dataDir = path.join(WORK, 'one-at-a-time');
    // Which modes were being built at each progress report.
    let most = 0;
    const result = await compiled.runImport({
      file: path.join(OSM, 'us-md-baltimore-valhalla.osm.pbf'), name: 'baltimore', dataDir, stages: [new routing.RoutingStage()],
      memoryBudgetBytes: 2 ** 20,
      onProgress: (e) => {
        if (!e.phase.startsWith('building and contracting')) return;
        const busy = (e.detail.match(/(contracted|ordering its vertices|building its turns|finding its connected roads)/g) ?? []).length;
        most = Math.max(most, busy);
      },
    });
    expect(result.manifest.stages.routing['graph threads']).toBe(1);
    expect(most).toBe(1);
    const dir = (root: string): string => path.join(root, 'extracts', 'baltimore', 'routing');
    const names = fs.readdirSync(dir(DATA)).sort();
    expect(fs.readdirSync(dir(dataDir)).sort()).toEqual(names);
    for (const name of names) {
      expect([name, fs.readFileSync(path.join(dir(dataDir), name)).equals(fs.readFileSync(path.join(dir(DATA), name)))]).toEqual([name, true]);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, IMPORT_TIMEOUT_MS);

  test('import bzip2 XML with the default name, and list as JSON', async () => {
    const run = await waymark(['data', 'import', path.join(OSM, 'us-ca-west-oakland-osmnx.osm.bz2')]);
    expect(run.code).toBe(0);
    const list = await waymark(['data', 'list', '--json']);
    expect(list.code).toBe(0);
    const parsed = JSON.parse(list.stdout);
    expect(parsed.extracts.map((e: { name: string }) => e.name)).toEqual(['baltimore', 'us-ca-west-oakland-osmnx']);
    expect(parsed.extracts[1].manifest.import).toMatchObject({ format: 'xml', compression: 'bzip2', nodes: 446 });
    const plain = await waymark(['data', 'list']);
    expect(plain.stdout).toMatch(/^baltimore\s+[\d.]+ (KiB|MiB)\s+imported \S+ from .*us-md-baltimore-valhalla\.osm\.pbf$/m);
  }, IMPORT_TIMEOUT_MS);

  test('a failed re-import exits 1, says why, and the previous extract keeps serving', async () => {
    for (const bad of [path.join(OSM, 'monaco-osrm.poly'), path.join(OSM, 'STATS.jsonl')]) {
      const run = await waymark(['data', 'import', bad, '--name', 'baltimore']);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/import of .* failed: .*not an OSM extract.*\(the previous "baltimore" extract stays\)/);
    }
    const truncated = path.join(WORK, 'cut.osm.pbf');
    fs.writeFileSync(truncated, fs.readFileSync(path.join(OSM, 'monaco-osrm.osm.pbf')).subarray(0, 900_000));
    const cut = await waymark(['data', 'import', truncated, '--name', 'baltimore']);
    expect(cut.code).toBe(1);
    expect(cut.stderr).toMatch(/truncated PBF file/);
    expect(served()).toEqual(['baltimore:51385', 'us-ca-west-oakland-osmnx:446']);
    expect(fs.readdirSync(path.join(DATA, 'extracts')).filter((f) => f.startsWith('.'))).toEqual([]);
  }, IMPORT_TIMEOUT_MS);

  test.each(['SIGTERM', 'SIGINT'] as const)('%s during the contraction stops the import, exits 128 + the signal, and changes nothing', async (signal) => {
    // The compiled CLI contracts Baltimore on worker threads (see above): the signal comes once the
    // contraction has started, while the main thread waits for the workers.
    const env = { PATH: process.env.PATH, HOME: os.tmpdir(), NODE_PATH: path.join(REPO, 'node_modules'), WAYMARK_DATA_DIR: DATA };
    const child = spawn(process.execPath, [MAIN, 'data', 'import', path.join(OSM, 'us-md-baltimore-valhalla.osm.pbf'), '--name', 'baltimore'], { env, cwd: WORK });
    let stderr = '';
    let sent = false;
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (!sent && /routing: building and contracting the road graph of each mode/.test(stderr)) {
        sent = true;
        child.kill(signal);
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(sent).toBe(true);
    expect([code, stderr]).toEqual([128 + os.constants.signals[signal], expect.stringMatching(new RegExp(`waymark: import of .* failed: interrupted \\(${signal}\\); nothing was changed \\(the previous "baltimore" extract stays\\)`))]);
    // No staging folder, no lock, and the extract of before still served.
    expect(fs.readdirSync(path.join(DATA, 'extracts')).filter((f) => f.startsWith('.'))).toEqual([]);
    expect(served()).toEqual(['baltimore:51385', 'us-ca-west-oakland-osmnx:446']);
  }, IMPORT_TIMEOUT_MS);

  test('an import stopped mid-contraction terminates its worker threads and writes nothing after', async () => {
    // The compiled pipeline in this process (the tests' TypeScript has no worker file beside it): the
    // threads of this process are counted once the reading is over (the thread pool is up) and again
    // after the abort, until they are back to that count.
    // The compiled files resolve packages as the CLI's child does with NODE_PATH: through the repository's.
    const modules = path.join(BUILD_DIR, 'node_modules');
    if (!fs.existsSync(modules)) fs.symlinkSync(path.join(REPO, 'node_modules'), modules);
    const compiled = require(path.join(BUILD_DIR, 'importers', 'osm', 'import-pipeline.js')) as typeof import('../../importers/osm/import-pipeline');
    const stages = require(path.join(BUILD_DIR, 'importers', 'osm', 'stages.js')) as typeof import('../../importers/osm/stages');
    const threads = (): number => fs.readdirSync('/proc/self/task').length;
    const dataDir = path.join(WORK, 'aborted');
    const abort = new AbortController();
    let before = -1;
    let during = -1;
    const heardAfter: string[] = [];
    const work = compiled.runImport({
      file: path.join(OSM, 'us-md-baltimore-valhalla.osm.pbf'), name: 'baltimore', dataDir, stages: stages.IMPORT_STAGES.map((make) => make()),
      signal: abort.signal,
      onProgress: (e) => {
        if (abort.signal.aborted) heardAfter.push(`${e.phase}: ${e.detail}`);
        if (e.phase.startsWith('preparing the road graph') && before < 0) before = threads();
        if (e.phase.startsWith('building and contracting') && /contracted/.test(e.detail) && !abort.signal.aborted) {
          during = threads();
          abort.abort(new Error('stopped by the test'));
        }
      },
    });
    await expect(work).rejects.toThrow('stopped by the test');
    expect(during).toBeGreaterThan(before);
    // Terminating a thread is asynchronous: wait (no time limit but the test's) until they are gone.
    while (threads() > before) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(threads()).toBe(before);
    // Workers left running would have gone on reporting their contraction (and handing on graphs).
    expect(heardAfter).toEqual([]);
    // Nothing was committed, and no staging folder came back from a late write.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(fs.readdirSync(path.join(dataDir, 'extracts'))).toEqual([]);
  }, IMPORT_TIMEOUT_MS);

  test('import from a URL (following a redirect) and replace a name atomically', async () => {
    const run = await waymark(['data', 'import', `${filesUrl}/latest/monaco-latest.osm.pbf`, '--name', 'baltimore']);
    expect(run.stderr).toMatch(/download baltimore: 1\.7 MiB/);
    expect(run.code).toBe(0);
    expect(served()).toEqual(['baltimore:180118', 'us-ca-west-oakland-osmnx:446']);
    const named = await waymark(['data', 'import', `${filesUrl}/latest/monaco-latest.osm.pbf`]);
    expect(named.stdout).toMatch(/^Imported monaco from http/m);
    const missing = await waymark(['data', 'import', `${filesUrl}/files/nowhere.osm.pbf`]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/answered HTTP 404/);
    expect(fs.readdirSync(path.join(DATA, 'extracts')).filter((f) => f.startsWith('.'))).toEqual([]);
  }, IMPORT_TIMEOUT_MS);

  test('remove, and usage errors exit 2', async () => {
    const removed = await waymark(['data', 'remove', 'monaco']);
    expect([removed.code, removed.stdout.trim()]).toEqual([0, 'Removed the extract monaco.']);
    const again = await waymark(['data', 'remove', 'monaco']);
    expect(again.code).toBe(1);
    expect(served()).toEqual(['baltimore:180118', 'us-ca-west-oakland-osmnx:446']);
    for (const args of [['data'], ['data', 'frobnicate'], ['data', 'import'], ['data', 'remove'], ['data', 'import', 'x.osm.pbf', '--name', 'Bad Name'], ['data', 'import', path.join(OSM, '...pbf')]]) {
      const run = await waymark(args);
      expect([args.join(' '), run.code]).toEqual([args.join(' '), 2]);
    }
    const absent = await waymark(['data', 'import', path.join(WORK, 'absent.osm.pbf')]);
    expect(absent.code).toBe(1);
    expect(absent.stderr).toMatch(/no such file/);
    // Several files make one region, which needs a name of its own.
    const unnamed = await waymark(['data', 'import', path.join(OSM, 'monaco-osrm.osm.pbf'), path.join(OSM, 'us-md-baltimore-valhalla.osm.pbf')]);
    expect([unnamed.code, unnamed.stderr]).toEqual([2, expect.stringMatching(/several files make one region: name it with --name/)]);
    const oneAbsent = await waymark(['data', 'import', path.join(OSM, 'monaco-osrm.osm.pbf'), path.join(WORK, 'absent.osm.pbf'), '--name', 'pair']);
    expect([oneAbsent.code, oneAbsent.stderr]).toEqual([1, expect.stringMatching(/absent\.osm\.pbf: no such file/)]);
  }, IMPORT_TIMEOUT_MS);
});
