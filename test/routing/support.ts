// Imports shared OSM extracts once per test file into a temporary data directory, with the real
// pipeline and stages, and gives an embedded router over them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runImport } from '../../importers/osm/import-pipeline';
import { RoutingStage } from '../../importers/osm/stages/routing/routing-stage';
import { createEmbeddedRouter, type EmbeddedRouter } from '../../adapters/router/embedded/embedded-router';
import { ExtractCatalog } from '../../adapters/extracts/extract-catalog';
import { startTestServer, tempDataDir, type TestServer } from '../support/server';
import { announceSkip, files as existingFiles } from '../support/requires';
import { prng } from '../../bench/support/prng';
import type { ModeRouter } from '../../core/routing/mode-router';
import type { LngLat } from '../../ports/router';

export const OSM = path.resolve(__dirname, '../../../shared/fixtures/osm');
export const OSRM = path.resolve(__dirname, '../../../shared/fixtures/engines/osrm/monaco-v6.0.0');

export function fixturesPresent(name: string, ...paths: string[]): boolean {
  const missing = paths.filter((f) => !fs.existsSync(f));
  if (missing.length > 0) announceSkip(name, existingFiles(...paths));
  return missing.length === 0;
}

export interface ImportedRouter {
  dataDir: string;
  catalog: ExtractCatalog;
  router: EmbeddedRouter;
  close(): void;
}

export async function importForRouting(extracts: Record<string, string>): Promise<ImportedRouter> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-routing-'));
  for (const [name, file] of Object.entries(extracts)) {
    await runImport({ file: path.join(OSM, file), name, dataDir, stages: [new RoutingStage()] });
  }
  return routerOver(dataDir);
}

/** The router once it has read every extract (it reads them in the background). */
async function routerOver(dataDir: string): Promise<ImportedRouter> {
  const catalog = new ExtractCatalog({ dataDir, checkMs: 0 });
  const router = createEmbeddedRouter(catalog);
  await router.settled();
  return { dataDir, catalog, router, close: () => fs.rmSync(dataDir, { recursive: true, force: true }) };
}

/**
 * An embedded router over OSM XML written by the test (a generated road), routing stage only: imported
 * before the file's tests, removed after them. Call it at the top level of a test file.
 */
export function routerForXml(name: string, xml: string): () => EmbeddedRouter {
  let imported: ImportedRouter | undefined;
  beforeAll(async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `waymark-${name}-`));
    const file = path.join(dataDir, `${name}.osm`);
    fs.writeFileSync(file, xml);
    await runImport({ file, name, dataDir, stages: [new RoutingStage()] });
    imported = await routerOver(dataDir);
  }, 60_000);
  afterAll(() => imported?.close());
  return () => imported!.router;
}

/** A real gateway over a data directory holding these extracts (name → file under ../shared/fixtures/osm), routing stage only. */
export async function serverWithExtracts(extracts: Record<string, string>): Promise<TestServer> {
  const dataDir = tempDataDir();
  for (const [name, file] of Object.entries(extracts)) {
    await runImport({ file: path.join(OSM, file), name, dataDir, stages: [new RoutingStage()] });
  }
  return startTestServer({ dataDir });
}

/** Seeded points on a mode's network: the middle point of random segments the mode uses. */
export function segmentMidpoints(r: ModeRouter, count: number, seed: number): LngLat[] {
  const random = prng(seed);
  const n = r.network;
  const out: LngLat[] = [];
  while (out.length < count) {
    const s = Math.floor(random() * n.segmentFrom.length);
    if (r.mode.segmentMain[s] !== 1) continue;
    const p = Math.floor((n.segmentStart[s] + n.segmentStart[s + 1] - 1) / 2);
    out.push([n.pointLon[p] / 1e7, n.pointLat[p] / 1e7]);
  }
  return out;
}
