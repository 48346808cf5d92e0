// Store failures of the environment answer 503 with Retry-After, are logged once in a while rather than
// once per request with a stack, and make /ready 503 while they last (issue 31, item 1):
//  - a full disk under the SQLite store: a real tmpfs of a few MiB, filled;
//  - a read-only data directory at start-up: a read-only bind mount; the gateway refuses to start;
//  - a lost PostgreSQL: the gateway connects through a TCP proxy the test stops and starts again, the
//    shared cluster is never touched.
// Mounting needs root; elsewhere the SQLite groups skip with one line, as the PostgreSQL group does
// without DATABASE_URL.
import fs from 'node:fs';
import path from 'node:path';
import { startServer, type RunningServer } from '../../server/app';
import { configFromEnv, type GatewayConfig } from '../../server/config';
import type { Logger } from '../../ports/logger';
import { DATABASE_URL, dropSchemas, freshSchemaName } from '../adapters/store-postgres-support';
import { fillDisk, mounting, mountReadOnly, mountTmpfs, unmount } from '../support/mounts';
import { envVar, requires } from '../support/requires';
import { tempDataDir } from '../support/server';
import { TcpProxy } from '../support/tcp-proxy';
import { until } from '../support/until';

interface LogLine {
  level: string;
  message: string;
  fields: Record<string, unknown>;
}

function capturingLogger(lines: LogLine[]): Logger {
  const keep = (level: string) => (message: string, fields: Record<string, unknown> = {}) => void lines.push({ level, message, fields });
  return { info: keep('info'), warn: keep('warn'), error: keep('error') };
}

interface Gateway {
  running: RunningServer;
  pk: string;
  lines: LogLine[];
  track(deviceId: string): Promise<{ status: number; retryAfter: string | null; body: { meta: Record<string, unknown> } }>;
  ready(): Promise<{ status: number; body: { checks: Record<string, { ok: boolean; detail?: string }> } }>;
}

async function gateway(overrides: Partial<GatewayConfig>): Promise<Gateway> {
  const lines: LogLine[] = [];
  const config: GatewayConfig = { ...configFromEnv({}), port: 0, host: '127.0.0.1', rateLimitScale: 0, logRequests: false, jobIntervalMs: 0, ...overrides };
  const running = await startServer(config, capturingLogger(lines));
  const project = await running.gateway.shared.projects.create('faults');
  const pk = project.keys.map((k) => k.key).find((k) => k.startsWith('prj_test_pk_'))!;
  return {
    running, pk, lines,
    track: async (deviceId) => {
      // A wide metadata object makes each new user a few KiB: writes need fresh pages soon.
      const res = await fetch(`${running.url}/v1/track`, {
        method: 'POST', headers: { authorization: pk, 'content-type': 'application/json' },
        body: JSON.stringify({ deviceId, latitude: 40.78, longitude: -73.97, accuracy: 10, metadata: { a: 'x'.repeat(1000), b: 'y'.repeat(1000), c: 'z'.repeat(1000) } }),
      });
      return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as { meta: Record<string, unknown> } };
    },
    ready: async () => {
      const res = await fetch(`${running.url}/ready`);
      return { status: res.status, body: (await res.json()) as { checks: Record<string, { ok: boolean; detail?: string }> } };
    },
  };
}

/** Tracks new devices until one is refused (the full disk shows), at most `max`; every answer before is 200. */
async function trackUntilRefused(g: Gateway, prefix: string, max: number) {
  for (let i = 0; i < max; i++) {
    const res = await g.track(`${prefix}-${i}`);
    if (res.status !== 200) return res;
  }
  throw new Error(`${max} updates were all stored`);
}

const withMounts = requires('store faults on a full or read-only disk', mounting());

withMounts('SQLite on a full disk', () => {
  let mount: string;
  let g: Gateway;
  beforeAll(async () => {
    mount = mountTmpfs(24);
    g = await gateway({ dataDir: mount });
  });
  afterAll(async () => {
    await g?.running.close();
    if (mount) unmount(mount);
  });

  test('updates answer 503 with Retry-After and no stack per request; /ready is 503; both recover once space is freed', async () => {
    expect((await g.track('before')).status).toBe(200);
    expect((await g.ready()).status).toBe(200);

    const filler = fillDisk(mount);
    const refused = await trackUntilRefused(g, 'full', 2000);
    expect(refused.status).toBe(503);
    expect(refused.body.meta).toMatchObject({ code: 503, type: 'ERROR_STORE_UNAVAILABLE', message: expect.stringMatching(/disk is full/) });
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    // More refused updates: still 503, and the log does not grow a line per request.
    const more = [];
    for (let i = 0; i < 20; i++) more.push((await g.track(`full-more-${i}`)).status);
    expect(more.every((s) => s === 503)).toBe(true);
    const faultLines = g.lines.filter((l) => l.message === 'store unavailable');
    expect(faultLines.length).toBeGreaterThan(0);
    expect(faultLines.length).toBeLessThan(5);
    expect(faultLines[0].fields).toMatchObject({ fault: 'disk-full' });
    expect(JSON.stringify(faultLines)).not.toMatch(/\n\s+at /);
    expect(g.lines.filter((l) => l.message === 'unhandled error')).toEqual([]);

    const notReady = await g.ready();
    expect(notReady.status).toBe(503);
    expect(notReady.body.checks.writes).toMatchObject({ ok: false, detail: expect.stringMatching(/full|ENOSPC/) });
    const metrics = await (await fetch(`${g.running.url}/metrics`)).text();
    expect(Number(/^waymark_store_unavailable_total\{fault="disk-full"\} (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(21);

    fs.rmSync(filler);
    await until('updates to be stored again', async () => (await g.track(`after-${Date.now()}`)).status === 200, 30_000, 200);
    await until('the node to be ready again', async () => (await g.ready()).status === 200, 30_000, 200);
  }, 120_000);
});

withMounts('SQLite on a read-only data directory', () => {
  test('the gateway does not start, and says why', async () => {
    const source = tempDataDir();
    // A data directory that served before: its database file is there, readable.
    const first = await gateway({ dataDir: source });
    await first.running.close();
    const readOnly = mountReadOnly(source);
    try {
      await expect(gateway({ dataDir: readOnly })).rejects.toThrow(/data directory .* cannot be written \(it is on a read-only file system\)/);
    } finally {
      unmount(readOnly);
      fs.rmSync(source, { recursive: true, force: true });
    }
  });
});

const withPostgres = requires('store faults with PostgreSQL down', envVar('DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/test'));

withPostgres('PostgreSQL down for a while', () => {
  let proxy: TcpProxy;
  let g: Gateway;
  const schemas: string[] = [];
  beforeAll(async () => {
    const target = new URL(DATABASE_URL!);
    proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
    await proxy.start();
    const viaProxy = new URL(DATABASE_URL!);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    const schema = freshSchemaName();
    schemas.push(schema);
    g = await gateway({ store: 'postgres', databaseUrl: viaProxy.href, databaseSchema: schema, dataDir: tempDataDir() });
  });
  afterAll(async () => {
    await proxy?.start().catch(() => undefined);
    await g?.running.close();
    await proxy?.stop();
    await dropSchemas(schemas);
  });

  test('updates answer 503 with Retry-After while it is down, /ready is 503, and both recover when it is back', async () => {
    expect((await g.track('before')).status).toBe(200);
    await proxy.stop();
    const during = [];
    for (let i = 0; i < 10; i++) during.push(await g.track(`down-${i}`));
    expect(during.map((r) => r.status)).toEqual(Array(10).fill(503));
    expect(during[0].body.meta).toMatchObject({ type: 'ERROR_STORE_UNAVAILABLE', message: expect.stringMatching(/cannot reach its database/) });
    expect(during.every((r) => Number(r.retryAfter) > 0)).toBe(true);
    expect((await g.ready()).status).toBe(503);
    expect(g.lines.filter((l) => l.message === 'unhandled error')).toEqual([]);
    expect(g.lines.filter((l) => l.message === 'store unavailable').length).toBeLessThan(5);
    const metrics = await (await fetch(`${g.running.url}/metrics`)).text();
    expect(Number(/^waymark_store_unavailable_total\{fault="connection-lost"\} (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(10);

    await proxy.start();
    await until('updates to be stored again', async () => (await g.track(`back-${Date.now()}`)).status === 200, 30_000, 200);
    await until('the node to be ready again', async () => (await g.ready()).status === 200, 30_000, 200);
  }, 120_000);
});
