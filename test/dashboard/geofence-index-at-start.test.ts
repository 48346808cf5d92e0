// A restarted gateway builds every environment's geofence index once it listens, before any request
// (issue 33: the first dashboard load after a restart waited for its environment's index, 2.2–2.6 CPU-s
// with 100,000 geofences, built by its first /v1/data/overview or /v1/data/map). Seen in its log line
// with the counts, then the map drawn from that index in Chromium. Real gateway, real SQLite file.
import type { Page } from 'playwright-core';
import { startServer, type RunningServer } from '../../server/app';
import { configFromEnv } from '../../server/config';
import type { Logger } from '../../ports/logger';
import { startTestServer, type ProjectKeys } from '../support/server';
import { until } from '../support/until';
import { buildDashboard, browserPage, closeInOrder, withChromium, type BrowserPage } from '../support/chromium';

const describeBrowser = withChromium('geofence indexes built at start');

const GEOFENCES = 30;

describeBrowser('a restarted gateway builds its geofence indexes before the first request', () => {
  let dataDir: string;
  let keys: ProjectKeys;
  let running: RunningServer | undefined;
  let chrome: BrowserPage;
  let page: Page;
  const logged: Array<{ message: string; fields?: Record<string, unknown> }> = [];
  const requestsBeforeLog: string[] = [];

  beforeAll(async () => {
    buildDashboard();
    const first = await startTestServer();
    for (let i = 0; i < GEOFENCES; i++) {
      const body = { description: `Store ${i}`, type: 'circle', coordinates: [-76.62 + (i % 6) * 0.005, 39.28 + Math.floor(i / 6) * 0.005], radius: 80 };
      expect((await first.request('PUT', `/v1/geofences/store/s${i}`, { key: first.keys.testSk, body })).status).toBe(200);
    }
    ({ dataDir, keys } = first);
    await first.close();
    chrome = await browserPage();
    page = chrome.page;
  }, 60_000);

  afterAll(() => closeInOrder(chrome, running));

  test('the log says both environments\' indexes were built, with their geofences, and the map draws them', async () => {
    const logger: Logger = {
      info: (message, fields) => logged.push({ message, fields }),
      warn: (message, fields) => logged.push({ message, fields }),
      error: (message, fields) => logged.push({ message, fields }),
    };
    const base = configFromEnv({});
    running = await startServer({
      ...base, port: 0, host: '127.0.0.1', rateLimitScale: 0, logRequests: true, jobIntervalMs: 0, dataDir,
      extracts: { ...base.extracts, loadWaitMs: 600_000 },
    }, logger);
    await until('the geofence indexes built', async () => logged.some((l) => l.message === 'geofence indexes built'), 30_000, 50);
    const built = logged.find((l) => l.message === 'geofence indexes built')!;
    // Built before any request reached the gateway (requests are logged: logRequests).
    for (const l of logged.slice(0, logged.indexOf(built))) if (l.message === 'request') requestsBeforeLog.push(String(l.fields?.path));
    expect(requestsBeforeLog).toEqual([]);
    expect(built.fields).toMatchObject({ environments: 2, geofences: GEOFENCES });
    expect(logged.filter((l) => l.message === 'geofence indexes not built at start')).toEqual([]);

    await page.addInitScript(`sessionStorage.setItem('waymark.dashboard.keys', JSON.stringify({ test: ${JSON.stringify(keys.testSk)}, current: 'test' }))`);
    await page.goto(`${running.url}/dashboard/#/map`);
    await page.locator('#map[data-ready]').waitFor();
    await until('the geofences counted in view', async () => (await page.locator('#map-status').textContent())?.startsWith(`${GEOFENCES} geofences`) ?? false, 10_000, 100);
  }, 90_000);
});
