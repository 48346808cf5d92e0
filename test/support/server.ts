// Starts the real gateway on an ephemeral port over a fresh temporary data directory, creates a project,
// and speaks HTTP to it. Tests use only what a client could: URLs, keys, JSON and form bodies.
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { startServer, type RunningServer } from '../../server/app';
import { configFromEnv, type GatewayConfig } from '../../server/config';
import { silentLogger } from '../../ports/logger';
import { openApiChecker } from './openapi-check';
import { formEncode } from './form-encode';

export interface ProjectKeys {
  id: string;
  testPk: string;
  livePk: string;
  testSk: string;
  liveSk: string;
}

export interface Reply {
  status: number;
  // Responses are JSON documents whose shape each test asserts.
  body: any;
  headers: Headers;
}

export interface RequestOptions {
  key?: string;
  /** Sent as JSON (default) or, with form: true, as application/x-www-form-urlencoded. */
  body?: unknown;
  form?: boolean;
  query?: Record<string, string | number | boolean>;
  headers?: Record<string, string>;
  /** Raw body text with its content type, for malformed-input tests. */
  raw?: { contentType: string; text: string };
  /**
   * false: skip the OpenAPI check of the answer, for a failure the document does not promise (a broken
   * store's 500). Every other answer is checked against the served document (openapi-check.ts).
   */
  openApi?: false;
}

export interface TestServer {
  url: string;
  dataDir: string;
  keys: ProjectKeys;
  running: RunningServer;
  request(method: string, urlPath: string, opts?: RequestOptions): Promise<Reply>;
  newProject(name: string): Promise<ProjectKeys>;
  close(): Promise<void>;
}

export function tempDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-test-'));
}

export async function startTestServer(overrides: Partial<GatewayConfig> & { dataDir?: string } = {}): Promise<TestServer> {
  const dataDir = overrides.dataDir ?? tempDataDir();
  const base = configFromEnv({});
  const config: GatewayConfig = {
    ...base,
    port: 0,
    host: '127.0.0.1',
    rateLimitScale: 0,
    logRequests: false,
    jobIntervalMs: 0,
    ...overrides,
    // Requests wait for the road networks however slow the machine is (the gateway reads them after it
    // listens): a test that wants the 503 of a network still loading sets loadWaitMs itself.
    extracts: { ...base.extracts, loadWaitMs: 600_000, ...overrides.extracts },
    dataDir,
  };
  const running = await startServer(config, silentLogger());
  try {
    return await speakTo(running, dataDir);
  } catch (err) {
    // A server whose set-up failed would keep jest's process alive after the run (CI waits out its limit).
    await running.close();
    throw err;
  }
}

// The test's own server over built-in TLS answers with the certificate the test made: trusted here, as
// the browser tests trust its key.
async function openApiText(url: string): Promise<string> {
  if (!url.startsWith('https:')) return (await fetch(url)).text();
  return new Promise((resolve, reject) => {
    https
      .get(url, { rejectUnauthorized: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

async function speakTo(running: RunningServer, dataDir: string): Promise<TestServer> {
  const newProject = async (name: string): Promise<ProjectKeys> => {
    const created = await running.gateway.shared.projects.create(name);
    const [testPk, livePk, testSk, liveSk] = created.keys.map((k) => k.key);
    return { id: created.id, testPk, livePk, testSk, liveSk };
  };
  const existing = await running.gateway.adapters.store.projects.list();
  // Reusing a data directory (restart tests) keeps its project; keys are then re-issued for the test.
  const keys = existing.length
    ? await (async () => {
        const issued = await running.gateway.shared.projects.rotateKeys(existing[0]._id);
        const [testPk, livePk, testSk, liveSk] = issued.map((k) => k.key);
        return { id: existing[0]._id, testPk, livePk, testSk, liveSk };
      })()
    : await newProject('test');
  // Every answer below is checked against the document this server serves (openapi-check.ts).
  const openApi = openApiChecker(await openApiText(`${running.url}/v1/openapi.json`));
  const request = async (method: string, urlPath: string, opts: RequestOptions = {}): Promise<Reply> => {
    const url = new URL(running.url + urlPath);
    for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.key !== undefined) headers.authorization = opts.key;
    let payload: string | undefined;
    if (opts.raw) {
      headers['content-type'] = opts.raw.contentType;
      payload = opts.raw.text;
    } else if (opts.body !== undefined) {
      if (opts.form) {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        payload = formEncode(opts.body as Record<string, unknown>);
      } else {
        headers['content-type'] = 'application/json';
        payload = JSON.stringify(opts.body);
      }
    }
    const res = await fetch(url, { method, headers, body: payload });
    const text = await res.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error(`${method} ${urlPath} answered ${res.status} with a non-JSON body: ${text.slice(0, 200)}`);
    }
    if (opts.openApi !== false) openApi.check(method.toUpperCase(), url.pathname, res.status, body);
    return { status: res.status, body, headers: res.headers };
  };
  return {
    url: running.url,
    dataDir,
    keys,
    running,
    request,
    newProject,
    close: () => {
      openApi.flush();
      return running.close();
    },
  };
}
