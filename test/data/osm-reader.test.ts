// The streaming OSM reader on the shared real extracts (PBF, XML, bzip2) and on broken copies of them:
// counts match the fixture statistics, coordinates fall in each extract's bounding box, and every kind
// of bad input fails with an OsmFormatError that says what is wrong.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { readOsm } from '../../importers/osm/osm-reader';
import { OsmFormatError } from '../../importers/osm/osm-visitor';
import { announceSkip, files } from '../support/requires';

const OSM = path.resolve(__dirname, '../../../shared/fixtures/osm');
const present = fs.existsSync(path.join(OSM, 'STATS.jsonl'));
if (!present) announceSkip('OSM reader', files(path.join(OSM, 'STATS.jsonl')));
const withFixtures = present ? describe : describe.skip;

interface Stats {
  file: string;
  bbox: [number, number, number, number];
  top_highway: Array<[string, number]>;
}

function stats(): Stats[] {
  return fs.readFileSync(path.join(OSM, 'STATS.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Stats);
}

const WORK = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-osm-reader-'));
afterAll(() => fs.rmSync(WORK, { recursive: true, force: true }));

async function census(file: string) {
  const highways = new Map<string, number>();
  let outside = 0;
  let taggedNodes = 0;
  let refs = 0;
  let lastNode = -Infinity;
  let sorted = true;
  let members = 0;
  const result = await readOsm(file, {
    node: (id, lon, lat, tags) => {
      if (id <= lastNode) sorted = false;
      lastNode = id;
      if (tags) taggedNodes++;
      if (!(lon >= -180 && lon <= 180 && lat >= -90 && lat <= 90)) outside++;
    },
    way: (w) => {
      refs += w.refs.length;
      const h = w.tags.highway;
      if (h) highways.set(h, (highways.get(h) ?? 0) + 1);
      expect(Object.isFrozen(w.tags)).toBe(true);
    },
    relation: (r) => {
      members += r.members.length;
    },
  });
  return { result, highways, outside, taggedNodes, refs, sorted, members };
}

withFixtures('real extracts', () => {
  test.each(['monaco-osrm.osm.pbf', 'us-md-baltimore-valhalla.osm.pbf', 'andorra-graphhopper.osm.pbf', 'us-nv-beatty-graphhopper.osm', 'us-ca-west-oakland-osmnx.osm.bz2', 'liechtenstein-2013-08-03-osm2pgsql.osm.pbf'])(
    '%s: highway counts equal the fixture statistics',
    async (name) => {
      const expected = stats().find((s) => s.file === name)!;
      const c = await census(path.join(OSM, name));
      expect(c.result.format).toBe(name.endsWith('.pbf') ? 'pbf' : 'xml');
      expect(c.result.compression).toBe(name.endsWith('.bz2') ? 'bzip2' : 'none');
      for (const [highway, count] of expected.top_highway) expect([highway, c.highways.get(highway)]).toEqual([highway, count]);
      expect(c.outside).toBe(0);
      expect(c.sorted).toBe(true);
      expect(c.result.nodes).toBeGreaterThan(0);
      expect(c.refs).toBeGreaterThan(c.result.ways);
      expect(c.members).toBeGreaterThan(0);
    },
  );

  test('node coordinates of Monaco lie in its bounding box and carry 1e-7 precision', async () => {
    const bbox = stats().find((s) => s.file === 'monaco-osrm.osm.pbf')!.bbox;
    let inside = 0;
    let total = 0;
    let fractional = 0;
    await readOsm(path.join(OSM, 'monaco-osrm.osm.pbf'), {
      node: (_id, lon, lat) => {
        total++;
        if (lon >= bbox[0] - 1e-6 && lon <= bbox[2] + 1e-6 && lat >= bbox[1] - 1e-6 && lat <= bbox[3] + 1e-6) inside++;
        if (Math.round(lon * 1e4) !== lon * 1e4) fractional++;
      },
    });
    expect(inside).toBe(total);
    expect(fractional).toBeGreaterThan(total / 2);
  });

  test('a gzip-compressed PBF reads the same as the plain one', async () => {
    const gz = path.join(WORK, 'baltimore.osm.pbf.gz');
    fs.writeFileSync(gz, zlib.gzipSync(fs.readFileSync(path.join(OSM, 'us-md-baltimore-valhalla.osm.pbf'))));
    const plain = await census(path.join(OSM, 'us-md-baltimore-valhalla.osm.pbf'));
    const zipped = await census(gz);
    expect(zipped.result.compression).toBe('gzip');
    expect({ ...zipped.result, compression: 'none' }).toEqual(plain.result);
  });

  test('a ways-only pass sees the same ways and no nodes', async () => {
    let nodes = 0;
    let ways = 0;
    const r = await readOsm(path.join(OSM, 'us-md-baltimore-valhalla.osm.pbf'), { way: () => void ways++ });
    expect(nodes).toBe(0);
    expect(r.nodes).toBe(0);
    expect(ways).toBe(7230);
    // The box its header declares (osmium fileinfo: -76.6081,39.2586,-76.5288,39.3065): where the extract was cut.
    expect(r.bounds?.map((v) => Math.round(v * 1e4) / 1e4)).toEqual([-76.6081, 39.2586, -76.5288, 39.3065]);
  });
});

async function failure(file: string): Promise<Error> {
  try {
    await readOsm(file, { node: () => undefined, way: () => undefined, relation: () => undefined });
  } catch (err) {
    return err as Error;
  }
  throw new Error(`${file} was read without an error`);
}

function write(name: string, data: Buffer | string): string {
  const file = path.join(WORK, name);
  fs.writeFileSync(file, data);
  return file;
}

withFixtures('broken input', () => {
  const monaco = () => fs.readFileSync(path.join(OSM, 'monaco-osrm.osm.pbf'));

  test('a truncated PBF', async () => {
    const data = monaco();
    const err = await failure(write('cut.osm.pbf', data.subarray(0, Math.floor(data.length / 2))));
    expect(err).toBeInstanceOf(OsmFormatError);
    expect(err.message).toMatch(/truncated PBF file/);
  });

  test('a PBF with a damaged compressed block', async () => {
    const data = Buffer.from(monaco());
    for (let i = 200_000; i < 200_400; i++) data[i] ^= 0x5a;
    const err = await failure(write('damaged.osm.pbf', data));
    expect(err).toBeInstanceOf(OsmFormatError);
    expect(err.message).toMatch(/corrupt PBF file/);
  });

  test('files that are not OSM at all', async () => {
    for (const [name, data] of [['notes.txt', 'hello, world\n'], ['random.bin', Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251))], ['empty.osm.pbf', '']] as const) {
      const err = await failure(write(name, data));
      expect(err).toBeInstanceOf(OsmFormatError);
      expect(err.message).toMatch(/not an OSM extract|is empty/);
    }
    const poly = await failure(path.join(OSM, 'monaco-osrm.poly'));
    expect(poly.message).toMatch(/not an OSM extract/);
  });

  test('XML that is not OSM, and OSM XML cut short', async () => {
    expect((await failure(write('html.osm', '<html><body>hi</body></html>'))).message).toMatch(/root element is <html>/);
    const xml = fs.readFileSync(path.join(OSM, 'us-nv-beatty-graphhopper.osm'));
    const cut = await failure(write('cut.osm', xml.subarray(0, Math.floor(xml.length / 3))));
    expect(cut).toBeInstanceOf(OsmFormatError);
    expect(cut.message).toMatch(/not valid OSM XML/);
    const badCoord = await failure(write('bad.osm', '<osm version="0.6"><node id="1" lat="x" lon="2"/></osm>'));
    expect(badCoord.message).toMatch(/no valid lat/);
  });

  test('bzip2 and gzip data that is cut or damaged', async () => {
    const bz = fs.readFileSync(path.join(OSM, 'us-ca-west-oakland-osmnx.osm.bz2'));
    const cut = await failure(write('cut.osm.bz2', bz.subarray(0, Math.floor(bz.length / 2))));
    expect(cut).toBeInstanceOf(OsmFormatError);
    const gz = zlib.gzipSync(monaco()).subarray(0, 100_000);
    const gzErr = await failure(write('cut.osm.pbf.gz', gz));
    expect(gzErr).toBeInstanceOf(OsmFormatError);
    expect(gzErr.message).toMatch(/gzip|truncated/);
  });

  test('a PBF history file is refused by its required features', async () => {
    // A header block naming HistoricalInformation, framed as the format does.
    const Pbf = (await import('pbf')).default;
    const header = new Pbf();
    header.writeStringField(4, 'OsmSchema-V0.6');
    header.writeStringField(4, 'HistoricalInformation');
    const headerBytes = header.finish();
    const blob = new Pbf();
    blob.writeBytesField(1, headerBytes);
    const blobBytes = blob.finish();
    const blobHeader = new Pbf();
    blobHeader.writeStringField(1, 'OSMHeader');
    blobHeader.writeVarintField(3, blobBytes.length);
    const bh = blobHeader.finish();
    const len = Buffer.alloc(4);
    len.writeUInt32BE(bh.length);
    const err = await failure(write('history.osh.pbf', Buffer.concat([len, bh, blobBytes])));
    expect(err.message).toMatch(/HistoricalInformation.*history file/);
  });
});
