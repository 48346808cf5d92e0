// PBF blocks decoded on worker threads (importers/osm/pbf-decode-pool.ts) reach the visitor exactly as a
// read on one thread gives them: the same entities, fields, tags (key order included) and order, for
// every kind of pass; and the one-thread read itself equals the reader before the pool (digests taken
// with main 5e2233d's decoder, which called the visitor from inside the protobuf loop). A damaged block
// fails with the same message either way.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readOsm } from '../../importers/osm/osm-reader';
import type { OsmVisitor } from '../../importers/osm/osm-visitor';
import { OsmFormatError } from '../../importers/osm/osm-visitor';
import { announceSkip, files } from '../support/requires';
import { startTsWorker } from '../support/ts-worker';

const OSM = path.resolve(__dirname, '../../../shared/fixtures/osm');
const present = fs.existsSync(path.join(OSM, 'STATS.jsonl'));
if (!present) announceSkip('PBF decoding pool', files(path.join(OSM, 'STATS.jsonl')));
const withFixtures = present ? describe : describe.skip;

const WORKER = path.resolve(__dirname, '../../importers/osm/pbf-decode-worker.ts');
const startWorker = () => startTsWorker(WORKER);

/**
 * A digest of everything a visitor is handed, in order (coordinates as their exact bits), and of the
 * read's result; the box the file's header declares apart (the reader gave none when the digests below
 * were taken).
 */
async function digest(file: string, kinds: { node?: boolean; way?: boolean; relation?: boolean }, threads: number): Promise<{ stream: string; bounds: string }> {
  const h = crypto.createHash('sha256');
  const f64 = new Float64Array(3);
  const bytes = new Uint8Array(f64.buffer);
  const visitor: OsmVisitor = {};
  if (kinds.node) {
    visitor.node = (id, lon, lat, tags) => {
      f64[0] = id;
      f64[1] = lon;
      f64[2] = lat;
      h.update(bytes);
      h.update(tags ? JSON.stringify(tags) + Object.isFrozen(tags) : 'null');
    };
  }
  if (kinds.way) visitor.way = (w) => void h.update('w' + w.id + ':' + Array.from(w.refs).join(',') + JSON.stringify(w.tags) + Object.isFrozen(w.tags));
  if (kinds.relation) visitor.relation = (r) => void h.update('r' + r.id + JSON.stringify(r.members) + JSON.stringify(r.tags) + Object.isFrozen(r.members));
  const result = await readOsm(file, visitor, { decodeThreads: threads, startDecodeWorker: startWorker });
  const { bounds, ...rest } = result;
  h.update(JSON.stringify(rest));
  return { stream: h.digest('hex').slice(0, 16), bounds: JSON.stringify(bounds) };
}

const ALL = { node: true, way: true, relation: true };

withFixtures('PBF decoding on worker threads', () => {
  // Monaco and Andorra hold blocks mixing tagged nodes with ways; Liechtenstein 2015 relations with roles.
  test.each([
    ['monaco-osrm.osm.pbf', 'bff9b6e5cbff4b3a'],
    ['andorra-graphhopper.osm.pbf', '9edd6584f96b9ae5'],
    ['liechtenstein-2015-valhalla.osm.pbf', '378f33f26cd1aca6'],
    ['us-md-baltimore-valhalla.osm.pbf', 'fcb05ed8301307a5'],
  ])('%s: one thread and two workers (Monaco: and one) hand the visitor the same stream as the reader before', async (name, before) => {
    const file = path.join(OSM, name);
    const one = await digest(file, ALL, 0);
    expect(await digest(file, ALL, 2)).toEqual(one);
    if (name.startsWith('monaco')) expect(await digest(file, ALL, 1)).toEqual(one);
    expect(one.stream).toBe(before);
  });

  test('passes of one kind each are the same with the pool', async () => {
    const file = path.join(OSM, 'andorra-graphhopper.osm.pbf');
    for (const kinds of [{ relation: true }, { node: true, way: true }, { way: true }]) {
      expect(await digest(file, kinds, 2)).toEqual(await digest(file, kinds, 0));
    }
  });

  test('a damaged block fails with the same message on a worker as on the reading thread', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-decode-pool-'));
    try {
      const bytes = fs.readFileSync(path.join(OSM, 'monaco-osrm.osm.pbf'));
      const broken = Buffer.from(bytes);
      // Well inside the second block's compressed data.
      for (let i = 0; i < 64; i++) broken[40_000 + i] ^= 0x5a;
      const file = path.join(dir, 'broken.osm.pbf');
      fs.writeFileSync(file, broken);
      const failure = async (threads: number) => {
        try {
          await readOsm(file, { node: () => undefined, way: () => undefined }, { decodeThreads: threads, startDecodeWorker: startWorker });
        } catch (err) {
          return err;
        }
        return null;
      };
      const here = await failure(0);
      const there = await failure(2);
      expect(here).toBeInstanceOf(OsmFormatError);
      expect(there).toBeInstanceOf(OsmFormatError);
      expect((there as Error).message).toBe((here as Error).message);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
