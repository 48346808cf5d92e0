// The dashboard's files as a fresh gateway serves them (issue 33, a first load after a start): the
// gzip form of each file a page asks for is the build's (`<file>.gz`), sent as it is, where the gateway
// used to compress every file on its first dashboard request, on its main thread, before answering.
// A file the build left uncompressed (a source map) is still sent gzipped when asked, and the same bytes
// again after. Real gateway over HTTP, and the map view loaded in Chromium from those files.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server';
import { buildDashboard, browserPage, closeInOrder, withChromium, type BrowserPage } from '../support/chromium';

const describeBrowser = withChromium('the dashboard files a fresh gateway serves');

/** The raw bytes of a GET (fetch would decode them) and the answer's Content-Encoding. */
function getRaw(url: string, headers: Record<string, string>): Promise<{ status: number; encoding?: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http.get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

describeBrowser('a fresh gateway serves the build\'s compressed dashboard files', () => {
  let server: TestServer;
  let built: string;
  let chrome: BrowserPage;
  let page: Page;

  beforeAll(async () => {
    built = buildDashboard();
    server = await startTestServer();
    chrome = await browserPage();
    page = chrome.page;
  }, 60_000);

  afterAll(() => closeInOrder(chrome, server));

  test('each file a page asks for has its .gz from the build, and the first answers send exactly it', async () => {
    const served = fs.readdirSync(built).filter((f) => /\.(html|js|css|json)$/.test(f));
    expect(served).toEqual(expect.arrayContaining(['index.html', 'app.js', 'style.css', 'countries.json']));
    for (const name of served) {
      const gz = path.join(built, `${name}.gz`);
      expect({ name, gz: fs.existsSync(gz) }).toEqual({ name, gz: true });
      expect(gunzipSync(fs.readFileSync(gz)).equals(fs.readFileSync(path.join(built, name)))).toBe(true);
    }
    // The fresh gateway's first dashboard requests: the page, then the largest file.
    for (const [urlPath, name] of [['/dashboard/', 'index.html'], ['/dashboard/countries.json', 'countries.json'], ['/dashboard/app.js', 'app.js']]) {
      const res = await getRaw(`${server.url}${urlPath}`, { 'accept-encoding': 'gzip, deflate' });
      expect({ name, status: res.status, encoding: res.encoding }).toEqual({ name, status: 200, encoding: 'gzip' });
      expect({ name, sameAsBuild: res.body.equals(fs.readFileSync(path.join(built, `${name}.gz`))) }).toEqual({ name, sameAsBuild: true });
    }
    // Without gzip accepted: the file itself.
    const plain = await getRaw(`${server.url}/dashboard/app.js`, {});
    expect(plain.encoding).toBeUndefined();
    expect(plain.body.equals(fs.readFileSync(path.join(built, 'app.js')))).toBe(true);
    // The compressed copies are not files of the dashboard's own.
    expect((await getRaw(`${server.url}/dashboard/app.js.gz`, {})).status).toBe(404);
  });

  test('a source map, which the build does not compress, is sent gzipped all the same, the same bytes each time', async () => {
    const map = fs.readdirSync(built).find((f) => f.endsWith('.js.map'))!;
    expect(fs.existsSync(path.join(built, `${map}.gz`))).toBe(false);
    const [first, second] = await Promise.all([0, 1].map(() => getRaw(`${server.url}/dashboard/${map}`, { 'accept-encoding': 'gzip' })));
    const third = await getRaw(`${server.url}/dashboard/${map}`, { 'accept-encoding': 'gzip' });
    for (const res of [first, second, third]) {
      expect(res.encoding).toBe('gzip');
      expect(gunzipSync(res.body).equals(fs.readFileSync(path.join(built, map)))).toBe(true);
    }
    expect(third.body.equals(first.body)).toBe(true);
  });

  test('Chromium loads the map from them: every file of the page arrives gzipped and decodes to the build', async () => {
    const answers: Array<{ name: string; encoding?: string; same: boolean }> = [];
    page.on('response', (res) => {
      const url = new URL(res.url());
      if (!url.pathname.startsWith('/dashboard/')) return;
      const name = url.pathname === '/dashboard/' ? 'index.html' : path.basename(url.pathname);
      // A body still being read when the page closes (the test over, or failed) is of no interest.
      res.body().then((body) => answers.push({ name, encoding: res.headers()['content-encoding'], same: body.equals(fs.readFileSync(path.join(built, name))) }), () => undefined);
    });
    await page.addInitScript(`sessionStorage.setItem('waymark.dashboard.keys', JSON.stringify({ test: ${JSON.stringify(server.keys.testSk)}, current: 'test' }))`);
    await page.goto(`${server.url}/dashboard/#/map`);
    await page.locator('#map[data-ready]').waitFor();
    await page.waitForLoadState('networkidle');
    expect(answers.map((a) => a.name)).toEqual(expect.arrayContaining(['index.html', 'app.js', 'style.css', 'leaflet.css']));
    expect(answers.filter((a) => a.encoding !== 'gzip' || !a.same)).toEqual([]);
  }, 60_000);
});
