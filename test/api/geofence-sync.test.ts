// The nightly geofence sync against real local servers, all on loopback and allowed by configuration:
// an HTTP server serving the CSVs, an S3-compatible server (s3rver) holding them as objects, and an
// SMTP receiver (smtp-server) catching the outcome mails. Covers settings (validation, the secret
// never shown, the live-key rule), immediate runs on save, failing downloads and their mails,
// address refusals, limits, the nightly job and the run history.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { SMTPServer } from 'smtp-server';
import { geofenceImportOf } from '../../server/features/geofence-import/geofence-import-feature';
import { configFromEnv, type GeofenceImportConfig } from '../../server/config';
import { startTestServer, type TestServer } from '../support/server';
import { SYNC_SETTINGS } from '../../server/features/geofence-import/sync-store';

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;
// s3rver ships no type declarations; this is the part of its API the test uses.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('s3rver') as S3rverClass;

const HEADER = 'description,type,tag,externalId,coordinates,radius';
const csv = (...rows: string[]): string => [HEADER, ...rows].join('\n') + '\n';
const TEST_CSV = csv('Sync A,circle,sync,a,"[10,10]",100', 'Sync B,circle,sync,b,"[10.01,10]",100');
const LIVE_CSV = csv('Live A,circle,sync,live-a,"[20,20]",100');
const BAD_CSV = csv('Bad radius,circle,sync,c,"[10,10]",5', 'No coordinates,circle,sync,d,,100');
const MAX_BYTES = 64 * 1024;

interface Mail {
  to: string[];
  subject: string;
  text: string;
}

/** Subject and plain body of a raw message (nodemailer's quoted-printable decoded). */
function readMail(raw: string, to: string[]): Mail {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  let body = raw.slice(split + 4);
  if (/content-transfer-encoding:\s*quoted-printable/i.test(head)) {
    body = body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    body = Buffer.from(body, 'latin1').toString('utf8');
  }
  const subject = /^subject: (.*)$/im.exec(head)?.[1] ?? '';
  return { to, subject, text: body.replace(/\r\n/g, '\n') };
}

let files: http.Server;
let filesUrl: string;
let s3: S3rverInstance;
let s3Url: string;
let smtp: SMTPServer;
let smtpPort: number;
const mails: Mail[] = [];
let server: TestServer;
const tempDirs: string[] = [];

function serveFiles(req: http.IncomingMessage, res: http.ServerResponse): void {
  const send = (status: number, text: string, headers: http.OutgoingHttpHeaders = {}) => {
    res.writeHead(status, { 'content-type': 'text/csv', ...headers });
    res.end(text);
  };
  switch (new URL(req.url ?? '/', 'http://files').pathname) {
    case '/test.csv': return send(200, TEST_CSV);
    case '/live.csv': return send(200, LIVE_CSV);
    case '/bad.csv': return send(200, BAD_CSV);
    case '/moved.csv': return send(302, '', { location: '/test.csv' });
    case '/to-metadata.csv': return send(302, '', { location: 'http://169.254.169.254/latest/meta-data/' });
    case '/big.csv': return send(200, csv(...Array.from({ length: 5000 }, (_, i) => `Big ${i},circle,big,${i},"[1,1]",100`)));
    case '/slow.csv':
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.write(HEADER + '\n');
      // Never ends: the download deadline must cut it.
      return;
    default: return send(404, 'not found');
  }
}

async function waitForMails(count: number): Promise<Mail[]> {
  for (let i = 0; i < 200 && mails.length < count; i++) await new Promise((r) => setTimeout(r, 25));
  expect(mails.length).toBeGreaterThanOrEqual(count);
  return mails.splice(0, mails.length);
}

function syncConfig(overrides: Partial<GeofenceImportConfig['sync']> = {}, smtpOverrides: Partial<GeofenceImportConfig['smtp']> = {}): GeofenceImportConfig {
  const defaults = configFromEnv({}).geofenceImport;
  return {
    ...defaults,
    sync: { ...defaults.sync, allowPrivate: true, checkMs: 0, timeoutMs: 1500, maxBytes: MAX_BYTES, s3Endpoint: s3Url, s3ForcePathStyle: true, ...overrides },
    smtp: { ...defaults.smtp, host: '127.0.0.1', port: smtpPort, secure: false, ...smtpOverrides },
  };
}

beforeAll(async () => {
  files = http.createServer(serveFiles);
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;

  const s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-s3rver-'));
  tempDirs.push(s3Dir);
  s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: s3Dir, configureBuckets: [{ name: 'geo-bucket' }] });
  s3Url = `http://127.0.0.1:${(await s3.run()).port}`;
  const client = new S3Client({
    region: 'us-east-1', endpoint: s3Url, forcePathStyle: true, requestChecksumCalculation: 'WHEN_REQUIRED',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  await client.send(new PutObjectCommand({ Bucket: 'geo-bucket', Key: 'exports/test.csv', Body: csv('S3 A,circle,s3,a,"[30,30]",100') }));
  await client.send(new PutObjectCommand({ Bucket: 'geo-bucket', Key: 'exports/live.csv', Body: csv('S3 live,circle,s3,l,"[31,31]",100', 'S3 live 2,circle,s3,l2,"[31.1,31]",100') }));
  client.destroy();

  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push(readMail(Buffer.concat(chunks).toString('latin1'), session.envelope.rcptTo.map((r) => r.address)));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;

  server = await startTestServer({ geofenceImport: syncConfig() });
});

afterAll(async () => {
  await server.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  await s3.close();
  files.closeAllConnections();
  await new Promise<void>((resolve) => files.close(() => resolve()));
  for (const d of tempDirs) fs.rmSync(d, { recursive: true, force: true });
});

async function list(key: string, tag: string): Promise<Array<Record<string, any>>> {
  return (await server.request('GET', '/v1/geofences', { key, query: { tag, limit: 1000 } })).body.geofences;
}

function putSync(key: string, body: Record<string, unknown>, wait = true) {
  return server.request('PUT', '/v1/geofence-sync', { key, body, query: wait ? { wait: true } : {} });
}

describe('settings', () => {
  test('GET before any settings: disabled, every field null, no last run', async () => {
    const r = await server.request('GET', '/v1/geofence-sync', { key: server.keys.testSk });
    expect(r.status).toBe(200);
    expect(r.body.sync).toEqual({
      enabled: false, email: null, protocol: null, testUrl: null, liveUrl: null, bucketRegion: null, bucketName: null,
      testObjectKey: null, liveObjectKey: null, accessKeyId: null, secretAccessKeySet: false,
      schedule: 'daily at 03:00 UTC', nextRunAt: null, createdAt: null, updatedAt: null, lastRun: null,
    });
  });

  test.each([
    ['enabled without email', { enabled: true, protocol: 'http', testUrl: 'https://example.com/a.csv' }, 'email'],
    ['enabled without protocol', { enabled: true, email: 'ops@example.com', testUrl: 'https://example.com/a.csv' }, 'protocol'],
    ['http without any URL', { enabled: true, email: 'ops@example.com', protocol: 'http' }, 'testUrl'],
    ['a URL that is not http', { testUrl: 'ftp://example.com/a.csv' }, 'testUrl'],
    ['a URL with a password', { testUrl: 'https://user:pw@example.com/a.csv' }, 'testUrl'],
    ['a cloud metadata URL', { testUrl: 'http://169.254.169.254/latest' }, 'testUrl'],
    ['a bad e-mail address', { email: 'ops at example.com' }, 'email'],
    ['an unknown protocol', { protocol: 'ftp' }, 'protocol'],
    ['s3 without bucket', { enabled: true, email: 'ops@example.com', protocol: 's3', bucketRegion: 'us-east-1', testObjectKey: 'a.csv', accessKeyId: 'K', secretAccessKey: 'S' }, 'bucketName'],
    ['an invalid bucket name', { bucketName: 'Not_A_Bucket' }, 'bucketName'],
    ['an invalid region', { bucketRegion: 'us east' }, 'bucketRegion'],
    ['an access key id without its secret', { accessKeyId: 'AKIA123' }, 'secretAccessKey'],
  ])('refused: %s', async (_name, body, param) => {
    const r = await putSync(server.keys.testSk, body);
    expect(r.status).toBe(400);
    expect(r.body.meta.param).toBe(param);
  });

  test('a test secret key may not set (or change settings that have) a live source', async () => {
    const r = await putSync(server.keys.testSk, { enabled: false, protocol: 'http', liveUrl: `${filesUrl}/live.csv` });
    expect(r.status).toBe(403);
    expect(r.body.meta.message).toMatch(/live secret key/);
    expect((await server.request('GET', '/v1/geofence-sync', { key: server.keys.testSk })).body.sync.enabled).toBe(false);
  });
});

describe('HTTP protocol', () => {
  test('saving enabled settings runs a sync at once: both environments imported, success mail sent', async () => {
    const before = new Date();
    const r = await putSync(server.keys.liveSk, {
      enabled: true, email: 'ops@example.com, geo@example.com', protocol: 'HTTP', testUrl: `${filesUrl}/test.csv`, liveUrl: `${filesUrl}/live.csv?token=secret`,
    });
    expect(r.status).toBe(200);
    expect(r.body.runStarted).toBe(true);
    expect(r.body.run).toMatchObject({
      trigger: 'saved', status: 'succeeded',
      environments: [
        { environment: 'test', source: `${filesUrl}/test.csv`, ok: true, dataRows: 2, created: 2, updated: 0, errorCount: 0 },
        { environment: 'live', source: `${filesUrl}/live.csv?…`, ok: true, dataRows: 1, created: 1, updated: 0, errorCount: 0 },
      ],
      mail: { to: ['ops@example.com', 'geo@example.com'], sent: true },
    });
    expect((await list(server.keys.testSk, 'sync')).map((g) => g.externalId).sort()).toEqual(['a', 'b']);
    expect((await list(server.keys.liveSk, 'sync')).map((g) => g.externalId)).toEqual(['live-a']);

    const [mail] = await waitForMails(1);
    expect(mail.to).toEqual(['ops@example.com', 'geo@example.com']);
    expect(mail.subject).toBe('Waymark geofence sync succeeded: test');
    expect(mail.text).toContain('Test environment');
    expect(mail.text).toContain('imported 2 geofences from 2 rows: 2 created, 0 updated.');
    expect(mail.text).not.toContain('token=secret');

    const sync = (await server.request('GET', '/v1/geofence-sync', { key: server.keys.testSk })).body.sync;
    expect(sync).toMatchObject({ enabled: true, protocol: 'http', email: 'ops@example.com, geo@example.com', lastRun: { _id: r.body.run._id, status: 'succeeded' } });
    // Next run: the first 03:00 UTC after the save.
    const next = new Date(sync.nextRunAt);
    expect(next.getUTCHours()).toBe(3);
    expect(next.getTime()).toBeGreaterThan(before.getTime());
    expect(next.getTime() - before.getTime()).toBeLessThanOrEqual(86_400_000);
  });

  test('the imported geofences fire events on track', async () => {
    const t = await server.request('POST', '/v1/track', {
      key: server.keys.livePk, body: { deviceId: 'sync-dev', latitude: 20, longitude: 20, accuracy: 5, foreground: true },
    });
    expect(t.body.events.map((e: { type: string; geofence: { externalId: string } }) => [e.type, e.geofence.externalId])).toEqual([['user.entered_geofence', 'live-a']]);
  });

  test('a failing download: run failed, nothing written, failure mail says why', async () => {
    const before = await list(server.keys.testSk, 'sync');
    const r = await putSync(server.keys.liveSk, { enabled: true, email: 'ops@example.com', protocol: 'http', testUrl: `${filesUrl}/missing.csv` });
    expect(r.status).toBe(200);
    expect(r.body.run).toMatchObject({
      status: 'failed',
      environments: [{ environment: 'test', ok: false, stage: 'download', message: `${filesUrl}/missing.csv answered HTTP 404 Not Found` }],
      mail: { sent: true },
    });
    expect(await list(server.keys.testSk, 'sync')).toEqual(before);
    const [mail] = await waitForMails(1);
    expect(mail.subject).toBe('Waymark geofence sync FAILED: test');
    expect(mail.text).toContain('failed at the download stage. Nothing was written to this environment.');
    expect(mail.text).toContain('answered HTTP 404');
  });

  test('a file with problems: nothing written, every problem in the run and the mail', async () => {
    const r = await putSync(server.keys.liveSk, { enabled: true, email: 'ops@example.com', protocol: 'http', testUrl: `${filesUrl}/bad.csv` });
    expect(r.body.run.status).toBe('failed');
    expect(r.body.run.environments[0]).toMatchObject({ ok: false, stage: 'validation', dataRows: 2, errorCount: 2 });
    expect(r.body.run.environments[0].errors.map((e: { row: number; column: string }) => [e.row, e.column])).toEqual([[2, 'radius'], [3, 'coordinates']]);
    expect(await list(server.keys.testSk, 'sync')).toHaveLength(2);
    const [mail] = await waitForMails(1);
    expect(mail.text).toContain('row 2, radius: radius must be between 10 and 10000');
    expect(mail.text).toContain('row 3, coordinates:');
  });

  test.each([
    ['a redirect to a cloud metadata address is not followed', '/to-metadata.csv', /^refused to connect to 169\.254\.169\.254: 169\.254\.169\.254 is a cloud metadata address$/],
    ['a file over the size limit is cut off', '/big.csv', new RegExp(`larger than the limit of ${MAX_BYTES} bytes`)],
    ['a download past the deadline is stopped', '/slow.csv', /did not finish within 1500 ms/],
  ])('%s', async (_name, file, message) => {
    const r = await putSync(server.keys.liveSk, { enabled: true, email: 'ops@example.com', protocol: 'http', testUrl: `${filesUrl}${file}` });
    expect(r.body.run).toMatchObject({ status: 'failed', environments: [{ ok: false, stage: 'download' }] });
    expect(r.body.run.environments[0].message).toMatch(message);
    await waitForMails(1);
  });

  test('a same-host redirect is followed', async () => {
    const r = await putSync(server.keys.liveSk, { enabled: true, email: 'ops@example.com', protocol: 'http', testUrl: `${filesUrl}/moved.csv` });
    expect(r.body.run).toMatchObject({ status: 'succeeded', environments: [{ ok: true, created: 0, updated: 2 }] });
    await waitForMails(1);
  });

  test('saving without ?wait answers at once; the run lands in lastRun and a mail', async () => {
    const previous = (await server.request('GET', '/v1/geofence-sync', { key: server.keys.testSk })).body.sync.lastRun._id;
    const r = await putSync(server.keys.liveSk, { enabled: true, email: 'ops@example.com', protocol: 'http', testUrl: `${filesUrl}/test.csv` }, false);
    expect(r.body).toMatchObject({ runStarted: true });
    expect(r.body.run).toBeUndefined();
    await waitForMails(1);
    let lastRun: Record<string, unknown> | null = null;
    for (let i = 0; i < 100; i++) {
      lastRun = (await server.request('GET', '/v1/geofence-sync', { key: server.keys.testSk })).body.sync.lastRun;
      if (lastRun && lastRun._id !== previous) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(lastRun).toMatchObject({ trigger: 'saved', status: 'succeeded' });
  });

  test('saving disabled settings runs nothing and clears the nightly run', async () => {
    const r = await putSync(server.keys.liveSk, { enabled: false, email: 'ops@example.com', protocol: 'http', testUrl: `${filesUrl}/test.csv` });
    expect(r.body).toMatchObject({ runStarted: false, sync: { enabled: false, nextRunAt: null } });
  });
});

describe('object storage (S3-compatible server)', () => {
  test('imports both environments; the secret access key is stored sealed and never shown', async () => {
    const r = await putSync(server.keys.liveSk, {
      enabled: true, email: 'ops@example.com', protocol: 's3', bucketRegion: 'us-east-1', bucketName: 'geo-bucket',
      testObjectKey: 'exports/test.csv', liveObjectKey: '/exports/live.csv', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER',
    });
    expect(r.status).toBe(200);
    expect(r.body.run).toMatchObject({
      status: 'succeeded',
      environments: [
        { environment: 'test', source: 's3://geo-bucket/exports/test.csv', ok: true, created: 1 },
        { environment: 'live', source: 's3://geo-bucket/exports/live.csv', ok: true, created: 2 },
      ],
    });
    expect((await list(server.keys.testSk, 's3')).map((g) => g.externalId)).toEqual(['a']);
    expect((await list(server.keys.liveSk, 's3')).map((g) => g.externalId).sort()).toEqual(['l', 'l2']);
    await waitForMails(1);

    const shown = await server.request('GET', '/v1/geofence-sync', { key: server.keys.liveSk });
    expect(shown.body.sync).toMatchObject({ protocol: 's3', accessKeyId: 'S3RVER', secretAccessKeySet: true, liveObjectKey: 'exports/live.csv' });
    expect(JSON.stringify(shown.body)).not.toMatch(/secretAccessKey"|Sealed/);
    const stored = await server.running.gateway.adapters.store.get(SYNC_SETTINGS, { projectId: server.keys.id, live: false }, server.keys.id);
    expect(JSON.stringify(stored)).not.toContain('"S3RVER"}');
    expect(stored?.secretAccessKeySealed).toMatch(/^v1:/);
  });

  test('PATCH keeps the stored secret; a missing object fails that environment only (partial)', async () => {
    const r = await server.request('PATCH', '/v1/geofence-sync', { key: server.keys.liveSk, query: { wait: true }, body: { testObjectKey: 'exports/missing.csv' } });
    expect(r.status).toBe(200);
    expect(r.body.run).toMatchObject({
      status: 'partial',
      environments: [
        { environment: 'test', ok: false, stage: 'download', message: 's3://geo-bucket/exports/missing.csv does not exist' },
        { environment: 'live', ok: true, updated: 2 },
      ],
    });
    const [mail] = await waitForMails(1);
    expect(mail.subject).toBe('Waymark geofence sync partly failed: test');
    expect(mail.text).toContain('s3://geo-bucket/exports/missing.csv does not exist');
  });

  test('a new access key id without its secret is refused', async () => {
    const r = await server.request('PATCH', '/v1/geofence-sync', { key: server.keys.liveSk, body: { accessKeyId: 'OTHER' } });
    expect(r.status).toBe(400);
    expect(r.body.meta.param).toBe('secretAccessKey');
  });
});

describe('nightly job and history', () => {
  test('runs each due project once, then schedules the following night', async () => {
    const runner = geofenceImportOf(server.running.gateway.installed)?.runner;
    if (!runner) throw new Error('geofence import feature not installed');
    const sync = (await server.request('GET', '/v1/geofence-sync', { key: server.keys.liveSk })).body.sync;
    const due = new Date(sync.nextRunAt);
    expect(await runner.runDue(new Date(due.getTime() - 1))).toBe(0);
    expect(await runner.runDue(due)).toBe(1);
    expect(await runner.runDue(due)).toBe(0);
    const after = (await server.request('GET', '/v1/geofence-sync', { key: server.keys.liveSk })).body.sync;
    expect(after.nextRunAt).toBe(new Date(due.getTime() + 86_400_000).toISOString());
    expect(after.lastRun).toMatchObject({ trigger: 'nightly', status: 'partial' });
    await waitForMails(1);
  });

  test('GET /v1/geofence-sync/runs lists runs newest first, pages with hasMore', async () => {
    const r = await server.request('GET', '/v1/geofence-sync/runs', { key: server.keys.testSk, query: { limit: 2 } });
    expect(r.status).toBe(200);
    expect(r.body.meta).toEqual({ code: 200, hasMore: true });
    expect(r.body.runs.map((run: { trigger: string }) => run.trigger)).toEqual(['nightly', 'saved']);
    const all = await server.request('GET', '/v1/geofence-sync/runs', { key: server.keys.testSk, query: { limit: 100 } });
    const starts = all.body.runs.map((run: { startedAt: string }) => run.startedAt);
    expect([...starts].sort().reverse()).toEqual(starts);
  });

  test('POST /v1/geofence-sync/run runs now; DELETE removes settings and history', async () => {
    const run = await server.request('POST', '/v1/geofence-sync/run', { key: server.keys.liveSk, query: { wait: true } });
    expect(run.body.run).toMatchObject({ trigger: 'manual' });
    await waitForMails(1);
    expect((await server.request('POST', '/v1/geofence-sync/run', { key: server.keys.testSk })).status).toBe(403);
    expect((await server.request('DELETE', '/v1/geofence-sync', { key: server.keys.liveSk })).status).toBe(200);
    expect((await server.request('GET', '/v1/geofence-sync/runs', { key: server.keys.liveSk })).body.runs).toEqual([]);
    expect((await server.request('POST', '/v1/geofence-sync/run', { key: server.keys.liveSk })).status).toBe(404);
  });
});

describe('a gateway that refuses private addresses and has no mail server', () => {
  let strict: TestServer;
  beforeAll(async () => {
    strict = await startTestServer({ geofenceImport: syncConfig({ allowPrivate: false, allowedNetworks: ['127.0.0.1/32'] }, { host: undefined }) });
  });
  afterAll(async () => {
    await strict.close();
  });

  test.each([
    ['a private address', 'http://10.1.2.3/g.csv', '10.1.2.3 is a private address; operators may allow it with WAYMARK_SYNC_ALLOW_PRIVATE=true'],
    ['IPv6 loopback', 'http://[::1]:8080/g.csv', '::1 is a loopback address; operators may allow it with WAYMARK_SYNC_ALLOW_PRIVATE=true'],
  ])('refuses %s when saving', async (_name, url, reason) => {
    const r = await strict.request('PUT', '/v1/geofence-sync', { key: strict.keys.testSk, body: { protocol: 'http', testUrl: url } });
    expect(r.status).toBe(400);
    expect(r.body.meta).toMatchObject({ param: 'testUrl', message: `testUrl is refused: ${reason}` });
  });

  test('an allowed network is reached; without SMTP the run records why no mail went out', async () => {
    const r = await strict.request('PUT', '/v1/geofence-sync', {
      key: strict.keys.testSk, query: { wait: true }, body: { enabled: true, email: 'ops@example.com', protocol: 'http', testUrl: `${filesUrl}/test.csv` },
    });
    expect(r.body.run).toMatchObject({
      status: 'succeeded',
      mail: { to: ['ops@example.com'], sent: false, error: 'mail is not configured on this gateway (WAYMARK_SMTP_HOST is unset)' },
    });
  });
});

describe('a gateway whose secret key differs from the one that sealed the stored secret', () => {
  test('the run fails at the configuration stage and says how to fix it', async () => {
    const first = await startTestServer({ geofenceImport: syncConfig({}, { host: undefined }) });
    const saved = await first.request('PUT', '/v1/geofence-sync', {
      key: first.keys.testSk,
      body: { protocol: 's3', bucketRegion: 'us-east-1', bucketName: 'geo-bucket', testObjectKey: 'exports/test.csv', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    expect(saved.status).toBe(200);
    await first.close();
    // Same data directory, but the key now comes from the configuration (as on another node).
    const second = await startTestServer({ dataDir: first.dataDir, geofenceImport: syncConfig({ secretKey: 'ab'.repeat(32) }, { host: undefined }) });
    try {
      const run = await second.request('POST', '/v1/geofence-sync/run', { key: second.keys.testSk, query: { wait: true } });
      expect(run.body.run).toMatchObject({ status: 'failed', environments: [{ environment: 'test', ok: false, stage: 'configuration' }] });
      expect(run.body.run.environments[0].message).toMatch(/cannot be decrypted with this gateway's key .*save the settings again with the secret/);
    } finally {
      await second.close();
    }
  });
});
