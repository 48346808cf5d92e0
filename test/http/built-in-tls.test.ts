// Built-in HTTPS (WAYMARK_TLS_CERT / WAYMARK_TLS_KEY) against the real gateway: it answers over TLS with
// the configured certificate, takes a renewed pair without a restart (files rewritten in place, or
// replaced by rename as certbot does), keeps serving the old certificate while a renewal is half written
// (new certificate, old key), and refuses to start on an unusable pair or on one variable alone.
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { startServer, type RunningServer } from '../../server/app';
import { ConfigError, configFromEnv } from '../../server/config';
import type { Logger } from '../../ports/logger';
import { executable, requires } from '../support/requires';
import { makeCertificate, OPENSSL, type TestCertificate } from '../support/test-certificate';
import { until } from '../support/until';

const withOpenssl = requires('built-in TLS', executable(OPENSSL, 'apt-get install openssl'));

/** The certificate the server presents, as its SHA-256 fingerprint. */
function presented(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port, servername: 'waymark.test', rejectUnauthorized: false }, () => {
      const fingerprint = socket.getPeerCertificate().fingerprint256;
      socket.end();
      resolve(fingerprint);
    });
    socket.once('error', reject);
  });
}

/** GET over HTTPS trusting only `ca`: the certificate must verify for the name. */
function getTrusting(url: string, ca: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    https.get(url, { ca, servername: 'waymark.test' }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    }).once('error', reject);
  });
}

withOpenssl('built-in TLS', () => {
  let dir: string;
  let first: TestCertificate;
  let server: RunningServer;
  const warnings: string[] = [];
  const infos: string[] = [];
  const logger: Logger = { info: (m) => infos.push(m), warn: (m, f) => warnings.push(`${m} ${JSON.stringify(f)}`), error: (m) => warnings.push(m) };
  const live = { certFile: '', keyFile: '' };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-tls-'));
    first = makeCertificate(dir, 'first', ['waymark.test']);
    live.certFile = path.join(dir, 'live.crt');
    live.keyFile = path.join(dir, 'live.key');
    fs.copyFileSync(first.certFile, live.certFile);
    fs.copyFileSync(first.keyFile, live.keyFile);
    const config = configFromEnv({ WAYMARK_TLS_CERT: live.certFile, WAYMARK_TLS_KEY: live.keyFile });
    server = await startServer({ ...config, port: 0, host: '127.0.0.1', dataDir: path.join(dir, 'data'), logRequests: false, rateLimitScale: 0, jobIntervalMs: 0 }, logger);
  });

  afterAll(async () => {
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('answers over HTTPS with the configured certificate', async () => {
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const health = await getTrusting(`https://127.0.0.1:${server.port}/health`, fs.readFileSync(first.certFile, 'utf8'));
    expect(health.status).toBe(200);
    expect(await presented(server.port)).toBe(first.fingerprint);
  });

  test('a renewal half written (new certificate, old key) leaves the old certificate in service', async () => {
    const second = makeCertificate(dir, 'second', ['waymark.test']);
    fs.copyFileSync(second.certFile, live.certFile);
    await until('the refused pair to be logged', () => warnings.some((w) => w.includes('tls certificate not reloaded')), 10_000);
    expect(await presented(server.port)).toBe(first.fingerprint);
    // The key arrives: the pair is usable and replaces the old one.
    fs.copyFileSync(second.keyFile, live.keyFile);
    await until('the second certificate in service', async () => (await presented(server.port)) === second.fingerprint, 10_000, 100);
    const health = await getTrusting(`https://127.0.0.1:${server.port}/health`, fs.readFileSync(second.certFile, 'utf8'));
    expect(health.status).toBe(200);
  });

  test('files replaced by rename (as certbot re-points its links) are picked up too', async () => {
    const third = makeCertificate(dir, 'third', ['waymark.test']);
    fs.renameSync(third.keyFile, live.keyFile);
    fs.renameSync(third.certFile, live.certFile);
    await until('the third certificate in service', async () => (await presented(server.port)) === third.fingerprint, 10_000, 100);
  });

  test('an unusable pair stops start-up, naming the files', async () => {
    const other = makeCertificate(dir, 'other', ['waymark.test']);
    const config = configFromEnv({ WAYMARK_TLS_CERT: first.certFile, WAYMARK_TLS_KEY: other.keyFile });
    await expect(startServer({ ...config, port: 0, host: '127.0.0.1', dataDir: path.join(dir, 'data-2') }, logger))
      .rejects.toThrow(`the TLS certificate ${first.certFile} and key ${other.keyFile} cannot be used together`);
    expect(fs.existsSync(path.join(dir, 'data-2'))).toBe(false);
    const missing = configFromEnv({ WAYMARK_TLS_CERT: path.join(dir, 'nope.crt'), WAYMARK_TLS_KEY: other.keyFile });
    await expect(startServer({ ...missing, port: 0, host: '127.0.0.1', dataDir: path.join(dir, 'data-3') }, logger))
      .rejects.toThrow(`cannot read the TLS certificate (WAYMARK_TLS_CERT) ${path.join(dir, 'nope.crt')}: ENOENT`);
  });
});

test('one of WAYMARK_TLS_CERT and WAYMARK_TLS_KEY alone is a configuration error', () => {
  expect(() => configFromEnv({ WAYMARK_TLS_CERT: '/etc/ssl/waymark.crt' })).toThrow(ConfigError);
  expect(() => configFromEnv({ WAYMARK_TLS_KEY: '/etc/ssl/waymark.key' }))
    .toThrow('WAYMARK_TLS_KEY is set without WAYMARK_TLS_CERT: HTTPS needs both the certificate and its key');
  expect(configFromEnv({}).tls).toBeUndefined();
});
