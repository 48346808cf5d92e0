// GET /v1/data/extracts is read by every project's secret key, so it must not repeat an import's source
// as the operator gave it: a URL's user, password, path and signed query string, or a file's path on the
// server. Two extracts imported by the real pipeline from a generated road, one named after a URL.
import fs from 'node:fs';
import path from 'node:path';
import { runImport } from '../../importers/osm/import-pipeline';
import { RoutingStage } from '../../importers/osm/stages/routing/routing-stage';
import { startTestServer, tempDataDir, type TestServer } from '../support/server';

const ROAD = `<?xml version="1.0" encoding="UTF-8"?>
<osm version="0.6">
<node id="1" lat="0" lon="0"/><node id="2" lat="0" lon="0.001"/>
<way id="1"><nd ref="1"/><nd ref="2"/><tag k="highway" v="residential"/></way>
</osm>
`;
const SIGNED_URL = 'https://operator:S3CRETPASS@mirror.example.com/private/bucket/road.osm.pbf?X-Amz-Signature=abc123&X-Amz-Credential=AKIAEXAMPLE';

let server: TestServer;
let file: string;
beforeAll(async () => {
  const dataDir = tempDataDir();
  file = path.join(dataDir, 'secret-folder', 'road.osm');
  fs.mkdirSync(path.dirname(file));
  fs.writeFileSync(file, ROAD);
  await runImport({ file, source: SIGNED_URL, name: 'fromurl', dataDir, stages: [new RoutingStage()] });
  await runImport({ file, name: 'fromfile', dataDir, stages: [new RoutingStage()] });
  server = await startTestServer({ dataDir, extracts: { reloadCheckMs: 0 } });
}, 60_000);
afterAll(() => server?.close());

test('a URL import shows its host only; a file import shows no path', async () => {
  const res = await server.request('GET', '/v1/data/extracts', { key: server.keys.testSk });
  expect(res.status).toBe(200);
  const byName = Object.fromEntries((res.body.extracts as Array<{ name: string; importedAt: unknown }>).map((e) => [e.name, e]));
  expect(byName.fromurl).toMatchObject({ name: 'fromurl', source: { type: 'url', host: 'mirror.example.com' } });
  expect(byName.fromfile).toMatchObject({ name: 'fromfile', source: { type: 'file' } });
  expect(typeof byName.fromurl.importedAt).toBe('string');
  const text = JSON.stringify(res.body);
  for (const secret of ['operator', 'S3CRETPASS', 'X-Amz', 'abc123', 'AKIAEXAMPLE', 'private/bucket', 'secret-folder', server.dataDir]) {
    expect(text).not.toContain(secret);
  }
});
