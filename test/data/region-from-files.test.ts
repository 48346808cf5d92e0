// Several extracts imported as one region. On OSM XML written here: the merged stream is sorted (every
// node before the first way), objects held by two files come once, files of different formats and
// compressions mix, an unsorted file is refused with how to sort it. On east Baltimore split by osmium
// into two overlapping halves: the import reads exactly the objects of the whole file, and a real
// gateway routes from one half into the other as over the whole file, where one half alone cannot.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { runImport } from '../../importers/osm/import-pipeline';
import { readOsm } from '../../importers/osm/osm-reader';
import { OsmFormatError } from '../../importers/osm/osm-visitor';
import { RoutingStage } from '../../importers/osm/stages/routing/routing-stage';
import { startTestServer, tempDataDir, type TestServer } from '../support/server';
import { executable, requires, sharedFixture, SHARED_FIXTURES } from '../support/requires';

const WORK = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-region-files-'));
afterAll(() => fs.rmSync(WORK, { recursive: true, force: true }));

function osmXml(nodes: Array<[number, number, number, Record<string, string>?]>, ways: Array<[number, number[], Record<string, string>]>, relations: Array<[number, number[]]> = []): string {
  const tags = (t: Record<string, string> = {}) => Object.entries(t).map(([k, v]) => `<tag k="${k}" v="${v}"/>`).join('');
  return [
    '<?xml version="1.0" encoding="UTF-8"?>\n<osm version="0.6">',
    ...nodes.map(([id, lat, lon, t]) => `<node id="${id}" lat="${lat}" lon="${lon}">${tags(t)}</node>`),
    ...ways.map(([id, refs, t]) => `<way id="${id}">${refs.map((r) => `<nd ref="${r}"/>`).join('')}${tags(t)}</way>`),
    ...relations.map(([id, members]) => `<relation id="${id}">${members.map((m) => `<member type="way" ref="${m}" role=""/>`).join('')}<tag k="type" v="route"/></relation>`),
    '</osm>',
  ].join('\n');
}

function write(name: string, text: string, gzip = false): string {
  const file = path.join(WORK, name);
  fs.writeFileSync(file, gzip ? zlib.gzipSync(text) : text);
  return file;
}

/** Every entity of a read, in order, as "n1", "w10", "r100". */
async function sequence(files: string | string[]): Promise<{ seen: string[]; counts: { nodes: number; ways: number; relations: number } }> {
  const seen: string[] = [];
  const result = await readOsm(files, {
    node: (id) => void seen.push(`n${id}`),
    way: (w) => void seen.push(`w${w.id}:${Array.from(w.refs).join(',')}`),
    relation: (r) => void seen.push(`r${r.id}`),
  });
  return { seen, counts: { nodes: result.nodes, ways: result.ways, relations: result.relations } };
}

describe('several files read as one', () => {
  // West holds nodes 1–4 and way 10; east holds 3–6, the same way 10 (it crosses the seam) and way 11.
  const west = () => write('west.osm', osmXml([[1, 39.0, -76.02], [2, 39.0, -76.015], [3, 39.0, -76.01], [4, 39.0, -76.005]], [[10, [1, 2, 3, 4], { highway: 'primary' }]], [[100, [10]]]));
  const east = () => write('east.osm.gz', osmXml([[3, 39.0, -76.01], [4, 39.0, -76.005], [5, 39.0, -76.0], [6, 39.0, -75.995, { amenity: 'cafe', name: 'Seam' }]], [[10, [1, 2, 3, 4], { highway: 'primary' }], [11, [4, 5, 6], { highway: 'primary' }]], [[100, [10]], [101, [11]]]), true);

  test('one sorted stream, each object once, XML and gzip XML together', async () => {
    const { seen, counts } = await sequence([west(), east()]);
    expect(seen).toEqual(['n1', 'n2', 'n3', 'n4', 'n5', 'n6', 'w10:1,2,3,4', 'w11:4,5,6', 'r100', 'r101']);
    expect(counts).toEqual({ nodes: 6, ways: 2, relations: 2 });
    // The order of the files does not change what is read.
    expect((await sequence([east(), west()])).seen).toEqual(seen);
  });

  test('a one-element list reads like the file itself', async () => {
    const file = west();
    expect(await sequence([file])).toEqual(await sequence(file));
  });

  test('an unsorted file is refused with its name and how to sort it', async () => {
    const unsorted = write('unsorted.osm', osmXml([[7, 39.0, -76.0], [5, 39.0, -76.01]], []));
    const error = await sequence([west(), unsorted]).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(OsmFormatError);
    expect((error as Error).message).toMatch(/unsorted\.osm is not sorted by type and id \(node 5 comes after node 7\).*osmium sort/);
  });

  test('a broken second file fails the read with an OsmFormatError naming it', async () => {
    const broken = write('broken.osm', '<osm><node id="9" lat="x" lon="1"/></osm>');
    await expect(sequence([west(), broken])).rejects.toThrow(OsmFormatError);
  });
});

const withOsmium = requires(
  'a region from two osmium-split halves of east Baltimore',
  sharedFixture('osm/us-md-baltimore-valhalla.osm.pbf'),
  executable('/usr/bin/osmium', 'install osmium (Debian: apt-get install osmium-tool)'),
);

withOsmium('a region from two overlapping extracts', () => {
  // Split at longitude -76.57 with 0.015° of overlap: ways crossing the seam are whole in both halves.
  const WEST_POINT = '39.2905,-76.6160'; // west of the overlap: only in the west half
  const EAST_POINT = '39.2870,-76.5400'; // east of the overlap: only in the east half
  let whole: string;
  let westFile: string;
  let eastFile: string;
  let region: TestServer;
  let reference: TestServer;
  let westOnly: TestServer;

  beforeAll(async () => {
    const osmium = (...args: string[]) => execFileSync('/usr/bin/osmium', [...args, '--overwrite', '--no-progress'], { stdio: 'pipe' });
    whole = path.join(WORK, 'whole.osm.pbf');
    westFile = path.join(WORK, 'west.osm.pbf');
    eastFile = path.join(WORK, 'east.osm.pbf');
    // The fixture is not sorted by id; extracts as Geofabrik serves them are.
    osmium('sort', path.join(SHARED_FIXTURES, 'osm/us-md-baltimore-valhalla.osm.pbf'), '-o', whole);
    osmium('extract', '-b', '-76.67,39.21,-76.56,39.35', '-s', 'complete_ways', whole, '-o', westFile);
    osmium('extract', '-b', '-76.575,39.21,-76.48,39.35', '-s', 'complete_ways', whole, '-o', eastFile);
    const imported = async (name: string, file: string | string[]): Promise<TestServer> => {
      const dataDir = tempDataDir();
      await runImport({ file, name, dataDir, stages: [new RoutingStage()] });
      return startTestServer({ dataDir });
    };
    region = await imported('baltimore', [westFile, eastFile]);
    reference = await imported('baltimore', whole);
    westOnly = await imported('west', westFile);
  }, 600_000);
  afterAll(async () => {
    for (const s of [region, reference, westOnly]) await s?.close();
  });

  test('the halves overlap, and the region reads exactly the objects of the whole file', () => {
    const manifest = (s: TestServer) => JSON.parse(fs.readFileSync(path.join(s.dataDir, 'extracts', 'baltimore', 'extract.json'), 'utf8'));
    const count = (file: string) => execFileSync('/usr/bin/osmium', ['fileinfo', '-e', '-g', 'data.count.nodes', file]).toString().trim();
    expect(Number(count(westFile)) + Number(count(eastFile))).toBeGreaterThan(Number(count(whole)) + 1000);
    const merged = manifest(region).import;
    const single = manifest(reference).import;
    expect([merged.nodes, merged.ways, merged.relations]).toEqual([single.nodes, single.ways, single.relations]);
    expect(manifest(region).source).toBe(`${westFile} + ${eastFile}`);
  });

  test('a route from one file into the other, as over the whole file; one half alone cannot', async () => {
    const route = (s: TestServer) => s.request('GET', '/v1/route/distance', { key: s.keys.testPk, query: { origin: WEST_POINT, destination: EAST_POINT, modes: 'car,foot', units: 'metric' } });
    const [merged, single, half] = await Promise.all([route(region), route(reference), route(westOnly)]);
    expect(merged.status).toBe(200);
    expect(merged.body.routes.car.estimate).toBeUndefined();
    expect(merged.body.routes.car.distance.value).toBeGreaterThan(6000);
    expect(merged.body.routes.car.distance.value).toBe(single.body.routes.car.distance.value);
    expect(merged.body.routes.foot.distance.value).toBe(single.body.routes.foot.distance.value);
    expect(half.body.routes.car.estimate).toBe(true);
  });
});
