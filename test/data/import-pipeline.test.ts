// The import runner over real extracts with a recording stage: pass order (relations, then nodes, then
// ways with every referenced node already stored), the staging folder, the manifest written last, the
// atomic replacement of a name, and that a failing or aborted import leaves the previous data serving.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { extractDir, extractsDir, MANIFEST_FILE } from '../../core/formats/extract-layout';
import { listExtracts, removeExtract } from '../../core/formats/extract-folders';
import { runImport } from '../../importers/osm/import-pipeline';
import type { ProgressEvent } from '../../importers/osm/import-progress';
import type { ImportStage, NodeCoordinates, OsmNode, OsmWay, StageContext } from '../../importers/osm/stage';
import { ExtractCatalog } from '../../adapters/extracts/extract-catalog';
import { announceSkip, files } from '../support/requires';

const OSM = path.resolve(__dirname, '../../../shared/fixtures/osm');
const present = fs.existsSync(path.join(OSM, 'monaco-osrm.osm.pbf'));
if (!present) announceSkip('import pipeline', files(path.join(OSM, 'monaco-osrm.osm.pbf')));
const withFixtures = present ? describe : describe.skip;

const DATA = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-import-'));
afterAll(() => fs.rmSync(DATA, { recursive: true, force: true }));

/** A stage that checks the pipeline's promises as it is called and writes one file. */
class RecordingStage implements ImportStage {
  readonly events: string[] = [];
  relations = 0;
  nodes = 0;
  untaggedNodes = 0;
  ways = 0;
  missingRefs = 0;
  resolvedRefs = 0;
  highwayNodes = new Set<number>();

  constructor(readonly name: string, private readonly failAt?: 'way' | 'finish') {}

  private mark(kind: string): void {
    if (this.events[this.events.length - 1] !== kind) this.events.push(kind);
  }

  relation(): void {
    this.mark('relation');
    this.relations++;
  }

  node(node: OsmNode): void {
    this.mark('node');
    this.nodes++;
    if (node.tags === null) this.untaggedNodes++;
  }

  way(way: OsmWay, nodes: NodeCoordinates): void {
    this.mark('way');
    this.ways++;
    if (this.failAt === 'way' && this.ways === 100) throw new Error('refusing way 100');
    for (let i = 0; i < way.refs.length; i++) {
      const index = nodes.indexOf(way.refs[i]);
      if (index < 0) this.missingRefs++;
      else {
        this.resolvedRefs++;
        if (way.tags.highway) this.highwayNodes.add(index);
      }
    }
  }

  async finish(ctx: StageContext) {
    this.mark('finish');
    if (this.failAt === 'finish') throw new Error('out of ideas');
    expect(fs.readdirSync(ctx.dir)).toEqual([]);
    expect(path.basename(path.dirname(ctx.dir))).toMatch(/^\.staging-/);
    ctx.progress('writing', 1, 1);
    fs.writeFileSync(path.join(ctx.dir, 'count.json'), JSON.stringify({ ways: this.ways }));
    return { ways: this.ways, highwayNodes: this.highwayNodes.size };
  }
}

withFixtures('runImport', () => {
  test('passes in order, every way ref resolves, manifest and stage files in place', async () => {
    const stage = new RecordingStage('recorder');
    const events: ProgressEvent[] = [];
    const result = await runImport({ file: path.join(OSM, 'monaco-osrm.osm.pbf'), name: 'monaco', dataDir: DATA, stages: [stage], onProgress: (e) => events.push(e) });
    expect(stage.events).toEqual(['relation', 'node', 'way', 'finish']);
    // Stages are handed tagged nodes only (3,090 of Monaco's 180,118); every node is in the index.
    expect([stage.relations, stage.nodes, stage.untaggedNodes, stage.ways]).toEqual([212, 3090, 0, 27377]);
    expect(result.manifest.import?.nodes).toBe(180118);
    // Monaco is cut from a bigger file: a few ways keep refs to nodes outside it.
    expect(stage.resolvedRefs).toBeGreaterThan(200_000);
    expect(stage.missingRefs).toBeLessThan(stage.resolvedRefs / 100);
    const dir = extractDir(DATA, 'monaco');
    expect(result.dir).toBe(dir);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, MANIFEST_FILE), 'utf8'));
    expect(manifest).toMatchObject({ format: 'waymark-extract', version: 1, name: 'monaco', stages: { recorder: { ways: 27377 } } });
    expect(manifest.import).toMatchObject({ format: 'pbf', compression: 'none', nodes: 180118, ways: 27377, relations: 212 });
    expect(manifest.import.peakMemoryBytes).toBeGreaterThan(0);
    const [w, s, e, n] = manifest.bbox;
    expect(w).toBeCloseTo(7.349, 2);
    expect(s).toBeCloseTo(43.7148, 3);
    expect(e).toBeCloseTo(7.491, 2);
    expect(n).toBeCloseTo(43.77, 3);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'recorder', 'count.json'), 'utf8'))).toEqual({ ways: 27377 });
    expect(fs.readdirSync(extractsDir(DATA)).filter((f) => f.startsWith('.'))).toEqual([]);
    const labels = [...new Set(events.filter((x) => x.finished).map((x) => x.label))];
    expect(labels).toEqual(['read relations', 'read nodes and ways', 'recorder']);
    expect(events.find((x) => x.label === 'read nodes and ways' && x.finished)!.detail).toMatch(/180,118 nodes, 27,377 ways/);
  });

  test('no relation pass when no stage wants relations; the XML extract reads the same way', async () => {
    const stage = new RecordingStage('recorder');
    // This stage does not want relations.
    (stage as { relation?: unknown }).relation = undefined;
    await runImport({ file: path.join(OSM, 'us-nv-beatty-graphhopper.osm'), name: 'beatty', dataDir: DATA, stages: [stage] });
    expect(stage.events).toEqual(['node', 'way', 'finish']);
    expect(stage.missingRefs).toBe(0);
  });

  test('a failing stage, a bad file or an abort leaves the previous extract and no staging folder', async () => {
    const manifestBefore = fs.readFileSync(path.join(extractDir(DATA, 'monaco'), MANIFEST_FILE), 'utf8');
    await expect(runImport({ file: path.join(OSM, 'us-md-baltimore-valhalla.osm.pbf'), name: 'monaco', dataDir: DATA, stages: [new RecordingStage('recorder', 'way')] }))
      .rejects.toThrow(/^stage recorder failed during way \d+: refusing way 100$/);
    await expect(runImport({ file: path.join(OSM, 'us-md-baltimore-valhalla.osm.pbf'), name: 'monaco', dataDir: DATA, stages: [new RecordingStage('recorder', 'finish')] }))
      .rejects.toThrow(/stage recorder failed: out of ideas/);
    await expect(runImport({ file: path.join(OSM, 'monaco-osrm.poly'), name: 'monaco', dataDir: DATA, stages: [new RecordingStage('recorder')] }))
      .rejects.toThrow(/not an OSM extract/);
    const abort = new AbortController();
    abort.abort(new Error('stop now'));
    await expect(runImport({ file: path.join(OSM, 'us-md-baltimore-valhalla.osm.pbf'), name: 'monaco', dataDir: DATA, stages: [new RecordingStage('recorder')], signal: abort.signal }))
      .rejects.toThrow('stop now');
    expect(fs.readFileSync(path.join(extractDir(DATA, 'monaco'), MANIFEST_FILE), 'utf8')).toBe(manifestBefore);
    expect(fs.readdirSync(extractsDir(DATA)).filter((f) => f.startsWith('.'))).toEqual([]);
  });

  test('re-importing a name replaces it whole; a catalog sees the change and removal', async () => {
    const catalog = new ExtractCatalog({ dataDir: DATA, checkMs: 0 });
    const seen: string[][] = [];
    catalog.subscribe((list) => seen.push(list.map((e) => `${e.name}:${e.manifest.import?.nodes}`)));
    expect(catalog.current().map((e) => e.name)).toEqual(['beatty', 'monaco']);
    const before = catalog.current().find((e) => e.name === 'monaco')!;
    expect(before.manifest.import?.nodes).toBe(180118);
    expect(catalog.check()).toBe(false);

    await runImport({ file: path.join(OSM, 'us-md-baltimore-valhalla.osm.pbf'), name: 'monaco', dataDir: DATA, stages: [new RecordingStage('other')] });
    const after = catalog.current().find((e) => e.name === 'monaco')!;
    expect(after.manifest.import?.nodes).toBe(51385);
    // The whole folder was swapped: the first import's stage folder is gone with it.
    expect(fs.readdirSync(after.dir).sort()).toEqual([MANIFEST_FILE, 'other']);

    expect(removeExtract(DATA, 'beatty')).toBe(true);
    expect(removeExtract(DATA, 'beatty')).toBe(false);
    expect(catalog.current().map((e) => e.name)).toEqual(['monaco']);
    expect(seen).toEqual([['beatty:6624', 'monaco:180118'], ['beatty:6624', 'monaco:51385'], ['monaco:51385']]);
    expect(listExtracts(DATA).map((e) => e.name)).toEqual(['monaco']);
  });

  test('a folder without a manifest is listed as unusable and not served; leftovers of a dead import go', async () => {
    fs.mkdirSync(path.join(extractsDir(DATA), 'half'));
    // A staging folder of a process that no longer exists (pid 2^22 + 1 is above Linux's default pid_max).
    const dead = path.join(extractsDir(DATA), '.staging-ghost-4194305');
    fs.mkdirSync(dead);
    const catalog = new ExtractCatalog({ dataDir: DATA, checkMs: 0 });
    expect(catalog.current().map((e) => e.name)).toEqual(['monaco']);
    expect(listExtracts(DATA).find((e) => e.name === 'half')?.problem).toMatch(/no extract.json/);
    await runImport({ file: path.join(OSM, 'us-ca-west-oakland-osmnx.osm.bz2'), name: 'oakland', dataDir: DATA, stages: [] });
    expect(fs.existsSync(dead)).toBe(false);
    expect(catalog.current().map((e) => e.name)).toEqual(['monaco', 'oakland']);
  });

  test('bad names are refused before anything is written', async () => {
    await expect(runImport({ file: path.join(OSM, 'monaco-osrm.osm.pbf'), name: '../etc', dataDir: DATA, stages: [] })).rejects.toThrow(/extract name/);
    await expect(runImport({ file: path.join(OSM, 'monaco-osrm.osm.pbf'), name: 'x', dataDir: DATA, stages: [new RecordingStage('a'), new RecordingStage('a')] })).rejects.toThrow(/two import stages are named a/);
  });
});
