// How the map view draws, as a trace of its first load and of a zoom and pan asked (bench/dashboard.ts
// TRACE=…): one draw of the geofences per move, when the view's answer comes, the drawing carried or
// scaled with the map until then (and still clickable where it went); every Leaflet layer on one canvas;
// the first load not forcing a layout to move the focus. In Chromium against a real gateway.
import type { Page, Route } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server';
import { until } from '../support/until';
import { buildDashboard, browserPage, closeInOrder, withChromium, type BrowserPage } from '../support/chromium';

const describeBrowser = withChromium('map drawing in a browser');

const STORE = { lat: 39.2979, lng: -76.5905 };
const FAR = { lat: 39.3279, lng: -76.5605 };

async function signIn(page: Page, url: string, key: string): Promise<void> {
  await page.addInitScript(`sessionStorage.setItem('waymark.dashboard.keys', JSON.stringify({ test: ${JSON.stringify(key)}, current: 'test' }))`);
  await page.goto(`${url}/dashboard/#/map`);
  await page.locator('#map[data-ready]').waitFor();
}

/** Counts the geofence canvas's draws from now on: each draw sets its size (a `width` attribute record). */
async function countDraws(page: Page): Promise<void> {
  await page.evaluate(`(() => {
    window.__draws = 0;
    new MutationObserver((records) => { window.__draws += records.filter((r) => r.attributeName === 'width').length; })
      .observe(document.querySelector('.geofence-canvas'), { attributes: true });
  })()`);
}

const draws = async (page: Page) => Number(await page.evaluate('window.__draws'));

/** Holds every answer of GET /v1/data/map until release(). */
async function holdMapAnswers(page: Page): Promise<{ held: () => number; release: () => Promise<void> }> {
  const held: Route[] = [];
  await page.route('**/v1/data/map?**', (route) => { held.push(route); });
  return {
    held: () => held.length,
    release: async () => {
      for (const r of held.splice(0)) await r.continue();
      await page.unroute('**/v1/data/map?**');
    },
  };
}

describeBrowser('the map view draws once per move', () => {
  let server: TestServer;
  let chrome: BrowserPage;
  let page: Page;

  beforeAll(async () => {
    buildDashboard();
    server = await startTestServer();
    const put = (id: string, body: Record<string, unknown>) => server.request('PUT', `/v1/geofences/store/${id}`, { key: server.keys.testSk, body });
    expect((await put('near', { description: 'Near store', type: 'circle', coordinates: [STORE.lng, STORE.lat], radius: 40 })).status).toBe(200);
    expect((await put('far', { description: 'Far store', type: 'circle', coordinates: [FAR.lng, FAR.lat], radius: 40 })).status).toBe(200);
    chrome = await browserPage();
  }, 60000);

  beforeEach(async () => {
    page = await chrome.newPage();
  });
  afterEach(async () => { await page?.close(); });

  afterAll(() => closeInOrder(chrome, server));

  test('a pan draws the geofences when the answer comes, not at its end too; what was drawn moves along and stays clickable', async () => {
    await signIn(page, server.url, server.keys.testSk);
    await countDraws(page);
    const answers = await holdMapAnswers(page);
    const box = (await page.locator('#map').boundingBox())!;
    const store = await nearStoreOnCanvas(page);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 - 120, box.y + box.height / 2 - 60, { steps: 8 });
    await page.mouse.up();
    await until('the pan\'s request for its view', () => answers.held() > 0, 10000, 50);
    expect(await draws(page)).toBe(0);
    // The store, carried along with the map (by however far the pan's inertia took it), is selected
    // where it now shows: where the canvas went, plus where on it the store was drawn.
    const canvas = (await page.locator('.geofence-canvas').boundingBox())!;
    expect(canvas.x).not.toBeCloseTo(box.x, 0);
    await page.mouse.click(canvas.x + store.x, canvas.y + store.y);
    await until('the near store\'s details', async () => /Near store/.test(String(await page.locator('#details').textContent())), 10000, 100);
    // Selecting it drew it highlighted; from here, the answer's draw alone.
    await page.evaluate('window.__draws = 0');
    await answers.release();
    await until('the draw of the answer', async () => (await draws(page)) >= 1, 10000, 50);
    expect(await draws(page)).toBe(1);
  });

  test('a zoom scales the drawing with the map instead of hiding it, and draws once when the answer comes', async () => {
    await signIn(page, server.url, server.keys.testSk);
    await countDraws(page);
    const answers = await holdMapAnswers(page);
    const box = (await page.locator('#map').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -300);
    await until('the zoom\'s request for its view', () => answers.held() > 0, 10000, 50);
    const style = (await page.evaluate(`(() => { const s = document.querySelector('.geofence-canvas').style; return { visibility: s.visibility, transform: s.transform }; })()`)) as { visibility: string; transform: string };
    expect(style.visibility).not.toBe('hidden');
    expect(Number(/scale\(([\d.]+)\)/.exec(style.transform)?.[1] ?? 1)).toBeGreaterThan(1);
    expect(await draws(page)).toBe(0);
    await answers.release();
    await until('the draw of the answer', async () => (await draws(page)) >= 1, 10000, 50);
    expect(await draws(page)).toBe(1);
  });

  test('every Leaflet layer of the map (graticule, outlines, events) shares one canvas beside the geofences\' and the users\'', async () => {
    const outlines = Promise.all(['countries.json', 'states.json'].map((f) => page.waitForResponse((r) => r.url().endsWith(`/dashboard/${f}`))));
    await signIn(page, server.url, server.keys.testSk);
    await outlines;
    // The outlines are converted a few at a time after their files come: give them a moment to be drawn.
    await until('the base map drawn', async () => Number(await page.evaluate(`document.querySelectorAll('#map .leaflet-overlay-pane canvas').length`)) > 0, 10000, 100);
    await page.waitForTimeout(1500);
    const canvases = (await page.evaluate(`[...document.querySelectorAll('#map canvas')].map((c) => c.className)`)) as string[];
    expect(canvases).toHaveLength(3);
  });

  test('the first load leaves the focus where the browser put it; following a section link moves it to the content', async () => {
    await signIn(page, server.url, server.keys.testSk);
    expect(await page.evaluate('document.activeElement && document.activeElement.id')).not.toBe('main');
    await page.getByRole('link', { name: 'Users' }).click();
    await until('the focus on the content', async () => (await page.evaluate('document.activeElement && document.activeElement.id')) === 'main', 5000, 50);
  });
});

/**
 * Where the near store is drawn on the geofence canvas (CSS pixels from its top-left corner): the middle
 * of what is painted in its left half, where the near store lies (south-west of the far one, the opening
 * view fitted to both).
 */
async function nearStoreOnCanvas(page: Page): Promise<{ x: number; y: number }> {
  const c = (await page.evaluate(`(() => {
    const canvas = document.querySelector('.geofence-canvas');
    const r = window.devicePixelRatio || 1;
    const { data, width, height } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    let sx = 0, sy = 0, n = 0;
    for (let y = 0; y < height; y++) for (let x = 0; x < width / 2; x++) if (data[(y * width + x) * 4 + 3] > 0) { sx += x; sy += y; n++; }
    return n ? { x: sx / n / r, y: sy / n / r } : null;
  })()`)) as { x: number; y: number } | null;
  if (!c) throw new Error('the near store is not painted');
  return c;
}
