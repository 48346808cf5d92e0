// The dashboard and /docs as an operator opens them from another machine: by a host name, not localhost,
// over plain HTTP and over the built-in HTTPS. Chromium maps the name to 127.0.0.1 (--host-resolver-rules),
// so the browser applies its rules for a remote origin (no localhost exemptions). A page "loads fully"
// when no request fails, nothing answers an error, the console reports no refused resource, the dashboard
// signs in to a ready map and Swagger UI lists the operations.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { configFromEnv } from '../../server/config';
import { executable, requires } from '../support/requires';
import { startTestServer, type TestServer } from '../support/server';
import { makeCertificate, OPENSSL } from '../support/test-certificate';
import { buildDashboard, CHROMIUM, browserPage, closeInOrder, type BrowserPage } from '../support/chromium';

// Swagger UI's bundle is large and this machine is shared: loading and rendering take tens of seconds.
jest.setTimeout(120_000);

const HOST = 'gateway.waymark.test';
const withChromium = requires('dashboard and /docs from a host name in Chromium', executable(CHROMIUM, 'apt-get install chromium, or set CHROMIUM_PATH'));
const withChromiumAndOpenssl = requires('dashboard and /docs over built-in HTTPS in Chromium',
  executable(CHROMIUM, 'apt-get install chromium, or set CHROMIUM_PATH'), executable(OPENSSL, 'apt-get install openssl'));

/** Everything that went wrong while the page loaded: failed requests, error statuses, console errors. */
function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('requestfailed', (req) => problems.push(`failed: ${req.url()} (${req.failure()?.errorText})`));
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`${res.status()}: ${res.url()}`);
  });
  page.on('console', (msg) => {
    // Over plain HTTP from a host name Chromium says it ignores helmet's Cross-Origin-Opener-Policy (it
    // applies to secure origins only). Nothing fails to load; the header stays for deployments behind TLS.
    if (msg.type() === 'error' && !msg.text().startsWith('The Cross-Origin-Opener-Policy header has been ignored')) {
      problems.push(`console: ${msg.text()} at ${msg.location().url}`);
    }
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  return problems;
}

async function expectDashboardLoads(page: Page, origin: string, secretKey: string): Promise<void> {
  const problems = watchProblems(page);
  await page.goto(`${origin}/dashboard/`);
  expect(page.url()).toBe(`${origin}/dashboard/`);
  await page.getByLabel('Secret key', { exact: true }).fill(secretKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('#map[data-ready]').waitFor();
  expect(problems).toEqual([]);
}

async function expectDocsLoad(page: Page, origin: string): Promise<void> {
  const problems = watchProblems(page);
  await page.goto(`${origin}/docs`);
  await page.locator('.swagger-ui .opblock').first().waitFor();
  expect(await page.locator('.swagger-ui .opblock').count()).toBeGreaterThan(10);
  expect(problems).toEqual([]);
}

withChromium('dashboard and /docs over plain HTTP from a host name', () => {
  let server: TestServer;
  let chrome: BrowserPage;
  let origin: string;

  beforeAll(async () => {
    buildDashboard();
    server = await startTestServer();
    origin = `http://${HOST}:${server.running.port}`;
    chrome = await browserPage([`--host-resolver-rules=MAP ${HOST} 127.0.0.1`]);
  }, 60_000);

  afterAll(() => closeInOrder(chrome, server));

  test('the dashboard loads and signs in', async () => {
    const page = await chrome.newPage();
    await expectDashboardLoads(page, origin, server.keys.testSk);
  });

  test('/docs renders the API reference', async () => {
    const page = await chrome.newPage();
    await expectDocsLoad(page, origin);
  });
});

withChromiumAndOpenssl('dashboard and /docs over built-in HTTPS with a test certificate', () => {
  let dir: string;
  let server: TestServer;
  let chrome: BrowserPage;
  let origin: string;

  beforeAll(async () => {
    buildDashboard();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-tls-browser-'));
    const cert = makeCertificate(dir, 'gateway', [HOST]);
    server = await startTestServer({ tls: configFromEnv({ WAYMARK_TLS_CERT: cert.certFile, WAYMARK_TLS_KEY: cert.keyFile }).tls });
    origin = `https://${HOST}:${server.running.port}`;
    // Trusts this certificate's key only, as a browser trusts a certificate from the operator's own CA.
    chrome = await browserPage([`--host-resolver-rules=MAP ${HOST} 127.0.0.1`, `--ignore-certificate-errors-spki-list=${cert.spkiHash}`]);
  }, 60_000);

  afterAll(async () => {
    await closeInOrder(chrome, server);
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('the dashboard loads and signs in', async () => {
    const page = await chrome.newPage();
    await expectDashboardLoads(page, origin, server.keys.testSk);
  });

  test('/docs renders the API reference', async () => {
    const page = await chrome.newPage();
    await expectDocsLoad(page, origin);
  });
});
