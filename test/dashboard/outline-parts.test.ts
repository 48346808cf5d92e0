// The country and state outlines are on the map in short parts, and only the parts near the view
// (issue 33, zoom and pan): Leaflet projects every point of each layer on the map at each zoom's end,
// and with whole countries as layers a city view projected the United States' 5,751 points and its
// states' to draw a few dozen (9–24 ms at each zoom's end in a trace). The page marks what it put on
// the map after each move (performance.mark 'waymark:outlines-shown', detail: file, parts, points).
// Chromium against a real gateway, geofences in Baltimore (the map opens on them).
import type { Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server';
import { until } from '../support/until';
import { buildDashboard, browserPage, closeInOrder, withChromium, type BrowserPage } from '../support/chromium';

const describeBrowser = withChromium('outline parts on the map');

interface Shown {
  file: string;
  parts: number;
  points: number;
}

/** The latest mark of each outline file. */
async function shown(page: Page): Promise<Record<string, Shown>> {
  return (await page.evaluate(`Object.fromEntries(performance.getEntriesByName('waymark:outlines-shown').map((m) => [m.detail.file, m.detail]))`)) as Record<string, Shown>;
}

describeBrowser('the outlines near the view only, in short parts', () => {
  let server: TestServer;
  let chrome: BrowserPage;
  let page: Page;

  beforeAll(async () => {
    buildDashboard();
    server = await startTestServer();
    for (let i = 0; i < 6; i++) {
      const body = { description: `Store ${i}`, type: 'circle', coordinates: [-76.62 + i * 0.01, 39.29], radius: 200 };
      expect((await server.request('PUT', `/v1/geofences/store/s${i}`, { key: server.keys.testSk, body })).status).toBe(200);
    }
    chrome = await browserPage();
    page = chrome.page;
  }, 60_000);

  afterAll(() => closeInOrder(chrome, server));

  test('a city view holds a few hundred outline points, not whole countries; zoomed out, more of them', async () => {
    await page.addInitScript(`sessionStorage.setItem('waymark.dashboard.keys', JSON.stringify({ test: ${JSON.stringify(server.keys.testSk)}, current: 'test' }))`);
    await page.goto(`${server.url}/dashboard/#/map`);
    await page.locator('#map[data-ready]').waitFor();
    await until('both outline files on the map', async () => Object.keys(await shown(page)).length === 2, 30_000, 100);
    const city = await shown(page);
    const [countries, states] = [city['countries.json'], city['states.json']];
    // Every file cut into many parts; the view (Baltimore, padded by half) meets Maryland's borders and
    // the United States' coast, each a few parts of at most 64 points.
    expect(countries.parts).toBeGreaterThan(1000);
    expect(states.parts).toBeGreaterThan(200);
    expect(states.points).toBeGreaterThan(0);
    expect(countries.points + states.points).toBeLessThan(1000);

    // Zoomed out to a whole region, more parts are on the map.
    const marks = Number(await page.evaluate(`performance.getEntriesByName('waymark:outlines-shown').length`));
    const box = (await page.locator('#map').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    for (let i = 0; i < 4; i++) { await page.mouse.wheel(0, 400); await page.waitForTimeout(400); }
    await until('the outlines shown again after the zoom', async () => Number(await page.evaluate(`performance.getEntriesByName('waymark:outlines-shown').length`)) >= marks + 2, 30_000, 100);
    await page.waitForTimeout(500);
    const wide = await shown(page);
    expect(wide['states.json'].points + wide['countries.json'].points).toBeGreaterThan(states.points + countries.points);
  }, 90_000);
});
