// Issue #10 items 8 and 13: a test secret key never reads the live half of the geofence-sync settings,
// and loopback names are refused when sync settings are saved, not only at download.
import { configFromEnv, type GeofenceImportConfig } from '../../server/config';
import { startTestServer, type TestServer } from '../support/server';

function syncConfig(overrides: Partial<GeofenceImportConfig['sync']>): GeofenceImportConfig {
  const defaults = configFromEnv({}).geofenceImport;
  return { ...defaults, sync: { ...defaults.sync, checkMs: 0, secretKey: 'cd'.repeat(32), ...overrides } };
}

describe('geofence-sync settings seen with a test key (item 8)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ geofenceImport: syncConfig({ allowPrivate: false }) });
  });
  afterAll(() => server?.close());

  test('the live URL, live object key and live credentials are hidden from the test secret key', async () => {
    const liveUrl = 'https://exports.example.com/live.csv?X-Amz-Signature=abc123&X-Amz-Credential=AKIALIVE';
    const saved = await server.request('PUT', '/v1/geofence-sync', {
      key: server.keys.liveSk, body: { protocol: 'http', testUrl: 'https://exports.example.com/test.csv', liveUrl },
    });
    expect(saved.status).toBe(200);
    const asLive = await server.request('GET', '/v1/geofence-sync', { key: server.keys.liveSk });
    expect(asLive.body.sync.liveUrl).toBe(liveUrl);
    const asTest = await server.request('GET', '/v1/geofence-sync', { key: server.keys.testSk });
    expect(asTest.status).toBe(200);
    expect(asTest.body.sync).toMatchObject({ testUrl: 'https://exports.example.com/test.csv', liveUrl: null, liveHidden: true });
    expect(JSON.stringify(asTest.body)).not.toContain('abc123');
  });

  test('the S3 access key id that serves live is hidden too', async () => {
    const saved = await server.request('PUT', '/v1/geofence-sync', {
      key: server.keys.liveSk,
      body: { protocol: 's3', bucketRegion: 'us-east-1', bucketName: 'geo-bucket', testObjectKey: 't.csv', liveObjectKey: 'secret/live.csv', accessKeyId: 'AKIALIVEKEY', secretAccessKey: 's' },
    });
    expect(saved.body.meta).toEqual({ code: 200 });
    const asTest = await server.request('GET', '/v1/geofence-sync', { key: server.keys.testSk });
    expect(asTest.body.sync).toMatchObject({ testObjectKey: 't.csv', liveObjectKey: null, accessKeyId: null });
    expect(JSON.stringify(asTest.body)).not.toContain('AKIALIVEKEY');
  });
});

describe('loopback names refused at save (item 13)', () => {
  // An allowed network that holds no loopback address: the check used to be left to the download.
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ geofenceImport: syncConfig({ allowPrivate: false, allowedNetworks: ['10.20.0.0/16'] }) });
  });
  afterAll(() => server?.close());

  test.each(['localhost', 'LOCALHOST.', 'api.localhost', 'localhost.localdomain', 'ip6-localhost', 'localhost6'])('%s', async (host) => {
    const r = await server.request('PUT', '/v1/geofence-sync', { key: server.keys.testSk, body: { protocol: 'http', testUrl: `http://${host}:8080/g.csv` } });
    expect(r.status).toBe(400);
    expect(r.body.meta).toMatchObject({ param: 'testUrl', message: expect.stringContaining('is refused') });
    expect((await server.request('GET', '/v1/geofence-sync', { key: server.keys.testSk })).body.sync.testUrl).toBeNull();
  });
});
