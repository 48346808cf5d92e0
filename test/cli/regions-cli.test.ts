// `waymark regions import|list|remove`, compiled as `npm run build` does and run as a child process on
// a data directory that a real gateway is serving at the same time: the gateway picks the imported
// boundaries up without a restart, and answers them through GET /v1/context and track.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTestServer, type TestServer } from '../support/server';
import { files, requires } from '../support/requires';

const REPO = path.resolve(__dirname, '..', '..');
const DMA_TOPOJSON = path.resolve(REPO, '../shared/fixtures/regions/nielsen_dma.topojson.json');
const BUILD_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-regions-cli-build-'));
const MAIN = path.join(BUILD_DIR, 'server', 'cli', 'main.js');
const WORK = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-regions-cli-'));
const DATA = path.join(WORK, 'data');

const TIMES_SQUARE = { lat: 40.758, lng: -73.9855 };
const MILTON_WA = { lat: 47.2513, lng: -122.3149 };

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function waymark(args: string[]): Promise<Run> {
  // A clean environment; NODE_PATH lets the build, outside the repository, find the repository's packages.
  const env = { PATH: process.env.PATH, HOME: os.tmpdir(), NODE_PATH: path.join(REPO, 'node_modules'), WAYMARK_DATA_DIR: DATA };
  return new Promise((resolve) => {
    execFile(process.execPath, [MAIN, ...args], { env, cwd: WORK, timeout: 120_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout, stderr });
    });
  });
}

/** Two sales territories around Times Square and Milton, WA (our own test data), plus one unusable feature. */
function territories(withBadFeature: boolean): string {
  const square = (lng: number, lat: number, d: number) => [[[lng - d, lat - d], [lng + d, lat - d], [lng + d, lat + d], [lng - d, lat + d], [lng - d, lat - d]]];
  const features: unknown[] = [
    { type: 'Feature', properties: { region_id: 'T-EAST', label: 'East' }, geometry: { type: 'Polygon', coordinates: square(TIMES_SQUARE.lng, TIMES_SQUARE.lat, 0.05) } },
    { type: 'Feature', properties: { region_id: 'T-WEST', label: 'West' }, geometry: { type: 'Polygon', coordinates: square(MILTON_WA.lng, MILTON_WA.lat, 0.05) } },
  ];
  if (withBadFeature) features.push({ type: 'Feature', properties: { region_id: 'T-LINE', label: 'A line' }, geometry: { type: 'LineString', coordinates: [[0, 0], [1, 1]] } });
  const file = path.join(WORK, withBadFeature ? 'territories-with-a-line.geojson' : 'territories.geojson');
  fs.writeFileSync(file, JSON.stringify({ type: 'FeatureCollection', features }));
  return file;
}

let server: TestServer;

beforeAll(async () => {
  // Other parts of the tree may be mid-edit and fail the type check; tsc still emits, so the entry point is the test.
  await new Promise<void>((resolve) => {
    execFile(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', BUILD_DIR], { cwd: REPO }, () => resolve());
  });
  expect(fs.existsSync(MAIN)).toBe(true);
  // The gateway runs on the directory before anything is imported, looking for changes on every lookup.
  server = await startTestServer({ dataDir: DATA, regions: { reloadCheckMs: 0 } });
}, 240_000);

afterAll(async () => {
  await server?.close();
  fs.rmSync(BUILD_DIR, { recursive: true, force: true });
  fs.rmSync(WORK, { recursive: true, force: true });
});

async function contextAt(at: { lat: number; lng: number }): Promise<Record<string, any>> {
  const r = await server.request('GET', '/v1/context', { key: server.keys.testPk, query: { coordinates: `${at.lat},${at.lng}` } });
  expect(r.status).toBe(200);
  return r.body.context;
}

const withDmaFixture = requires('regions CLI import of Nielsen DMAs', files(DMA_TOPOJSON));
withDmaFixture('DMA import from the Nielsen TopoJSON fixture (degrees)', () => {
  test('import with a progress bar and a summary; the running gateway answers the DMA', async () => {
    expect(await contextAt(TIMES_SQUARE)).not.toHaveProperty('dma');
    const run = await waymark(['regions', 'import', DMA_TOPOJSON, '--type', 'dma', '--code-property', 'dma', '--name-property', 'dma1', '--object', 'nielsen_dma']);
    expect(run.stderr).toMatch(/Reading features: 100% \(206\/206\)/);
    expect(run.stdout).toMatch(/^Imported 206 dma regions from .*nielsen_dma\.topojson\.json in \d+\.\d\d s\.$/m);
    expect(run.code).toBe(0);

    const times = await contextAt(TIMES_SQUARE);
    expect(times.dma).toEqual({ _id: expect.stringMatching(/^[0-9a-f]{24}$/), type: 'dma', name: 'New York, NY', code: '501' });
    expect((await contextAt(MILTON_WA)).dma?.code).toBe('819');
    // The regions Radar also names stay as they were.
    expect(times.state.code).toBe('NY');
  });

  test('track with regions on: the user gets the DMA and enters it', async () => {
    await server.request('PATCH', '/v1/project/settings', { key: server.keys.testSk, body: { regions: true } });
    const r = await server.request('POST', '/v1/track', {
      key: server.keys.testPk, body: { deviceId: 'dma-device', latitude: TIMES_SQUARE.lat, longitude: TIMES_SQUARE.lng, accuracy: 10, foreground: true },
    });
    expect(r.body.user.dma).toMatchObject({ type: 'dma', code: '501' });
    expect(r.body.events.map((e: { type: string }) => e.type)).toContain('user.entered_region_dma');
  });

  test('a failed import (wrong code property) exits 1 and keeps the previous layer', async () => {
    const run = await waymark(['regions', 'import', DMA_TOPOJSON, '--type', 'dma', '--code-property', 'no_such_property']);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/feature 0: skipped: no no_such_property property/);
    expect(run.stdout).toMatch(/Nothing was imported from .*: no usable feature\. The previous dma layer stays\./);
    expect((await contextAt(TIMES_SQUARE)).dma?.code).toBe('501');
  });

  test('list shows the layer', async () => {
    const run = await waymark(['regions', 'list', '--json']);
    expect(run.code).toBe(0);
    const listed = JSON.parse(run.stdout);
    expect(listed.layers).toEqual([expect.objectContaining({ type: 'dma', regions: 206, source: { file: 'nielsen_dma.topojson.json', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) } })]);
  });
});

describe('operator types of their own', () => {
  test('skipped features are listed; the usable ones are imported and show in context under their type', async () => {
    const run = await waymark(['regions', 'import', territories(true), '--type', 'territory', '--code-property', 'region_id', '--name-property', 'label']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/feature 2: skipped: geometry LineString is not Polygon or MultiPolygon/);
    expect(run.stdout).toMatch(/Imported 2 territory regions from .* 1 feature\(s\) skipped\./);
    expect((await contextAt(TIMES_SQUARE)).territory).toMatchObject({ type: 'territory', code: 'T-EAST', name: 'East' });
    expect((await contextAt(MILTON_WA)).territory).toMatchObject({ code: 'T-WEST' });
  });

  test('--strict: any skipped feature fails the import and nothing changes', async () => {
    const strict = await waymark(['regions', 'import', territories(true), '--type', 'strict-territory', '--code-property', 'region_id', '--strict', '--json']);
    expect(strict.code).toBe(1);
    expect(JSON.parse(strict.stdout)).toMatchObject({ imported: 2, replaced: false, skipped: [{ index: 2 }] });
    expect(await contextAt(TIMES_SQUARE)).not.toHaveProperty('strict-territory');
    const clean = await waymark(['regions', 'import', territories(false), '--type', 'strict-territory', '--code-property', 'region_id', '--strict']);
    expect(clean.code).toBe(0);
    expect((await contextAt(TIMES_SQUARE))['strict-territory']).toMatchObject({ code: 'T-EAST', name: 'T-EAST' });
  });

  test('remove takes a layer away from the running gateway', async () => {
    const run = await waymark(['regions', 'remove', '--type', 'territory']);
    expect(run.code).toBe(0);
    expect(await contextAt(TIMES_SQUARE)).not.toHaveProperty('territory');
    expect((await waymark(['regions', 'remove', '--type', 'territory'])).code).toBe(1);
  });

  test.each([
    ['no file', ['regions', 'import'], 2, /regions import needs a FILE/],
    ['no --type', ['regions', 'import', 'x.geojson'], 2, /--type is required/],
    ['an invalid type', ['regions', 'import', 'x.geojson', '--type', '../etc'], 2, /must be letters, digits/],
    ['a missing file', ['regions', 'import', 'missing.geojson', '--type', 'dma'], 1, /cannot read missing\.geojson: no such file/],
    ['not JSON', ['regions', 'import', 'not-json.txt', '--type', 'dma'], 1, /is not JSON/],
    ['an unknown subcommand', ['regions', 'frobnicate'], 2, /Unknown regions subcommand "frobnicate"/],
  ])('%s → a non-zero exit with a message', async (_name, args, code, message) => {
    fs.writeFileSync(path.join(WORK, 'not-json.txt'), 'hello');
    const run = await waymark(args);
    expect(run.code).toBe(code);
    expect(run.stderr).toMatch(message);
  });

  test('no staging directory is left behind', () => {
    expect(fs.readdirSync(DATA).filter((n) => n.startsWith('.regions-import-'))).toEqual([]);
  });
});
