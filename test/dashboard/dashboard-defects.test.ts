// The defects of issue 33 that a user met in the dashboard's first ten minutes, each driven in headless
// Chromium against a real gateway; each of these failed on the dashboard before the fix. The isochrone
// cases need the Monaco extract (../shared/fixtures) and skip without it.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server';
import { until } from '../support/until';
import { OSM, fixturesPresent, serverWithExtracts } from '../routing/support';
import { buildDashboard, browserPage, closeInOrder, withChromium, type BrowserPage } from '../support/chromium';

const describeBrowser = withChromium('dashboard defects in a browser');

const STORE = { lat: 39.2979, lng: -76.5905 };
/** A square about 3.3 km across, north-east of the store. */
const DISTRICT: Array<[number, number]> = [[-76.60, 39.30], [-76.56, 39.30], [-76.56, 39.33], [-76.60, 39.33], [-76.60, 39.30]];

async function signIn(page: Page, url: string, key: string, hash = '#/map'): Promise<void> {
  await page.addInitScript(`sessionStorage.setItem('waymark.dashboard.keys', JSON.stringify({ test: ${JSON.stringify(key)}, current: 'test' }))`);
  await page.goto(`${url}/dashboard/${hash}`);
}

/** Screenshots for docs/dashboard/ when $WAYMARK_SCREENSHOTS is set. */
async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.WAYMARK_SCREENSHOTS;
  if (dir) await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: false });
}

/** Alpha of the geofence canvas at a point of the map (container pixels): 0 where nothing is painted. */
function paintedAt(page: Page, x: number, y: number): Promise<number> {
  return page.evaluate(`(() => {
    const c = document.querySelector('.geofence-canvas');
    const r = window.devicePixelRatio || 1;
    return c.getContext('2d').getImageData(Math.round(${x} * r), Math.round(${y} * r), 1, 1).data[3];
  })()`) as Promise<number>;
}

describeBrowser('dashboard defects of issue 33', () => {
  let server: TestServer;
  let chrome: BrowserPage;
  let page: Page;

  beforeAll(async () => {
    buildDashboard();
    server = await startTestServer();
    const put = (id: string, body: Record<string, unknown>) => server.request('PUT', `/v1/geofences/store/${id}`, { key: server.keys.testSk, body });
    expect((await put('seed', { description: 'Seed store', type: 'circle', coordinates: [STORE.lng, STORE.lat], radius: 150 })).status).toBe(200);
    expect((await put('district', { description: 'District', type: 'polygon', coordinates: [DISTRICT] })).status).toBe(200);
    chrome = await browserPage();
  }, 60000);

  beforeEach(async () => {
    page = await chrome.newPage();
  });
  afterEach(async () => { await page?.close(); });

  afterAll(() => closeInOrder(chrome, server));

  test('signed out, neither the sections nor the environment switch nor "Sign out" show', async () => {
    await page.goto(`${server.url}/dashboard/`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.locator('#nav').isVisible()).toBe(false);
    expect(await page.locator('#session').isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(false);
    await shot(page, 'signin');
  });

  test('switching to live asks for the live key in a password field of the page, not in window.prompt', async () => {
    const prompts: string[] = [];
    page.on('dialog', (d) => { prompts.push(d.type()); void d.dismiss(); });
    await signIn(page, server.url, server.keys.testSk);
    await page.locator('#map[data-ready]').waitFor();
    await page.getByLabel('Environment').selectOption('live');
    const field = page.locator('#env-key-dialog input[type="password"]');
    await field.waitFor({ timeout: 5000 });
    await shot(page, 'environment-switch');
    await field.fill(server.keys.liveSk);
    await page.getByRole('button', { name: 'Switch to live' }).click();
    await page.getByRole('heading', { name: 'Map · live' }).waitFor();
    expect(prompts).toEqual([]);
  });

  test('the rotate dialog names the one environment the API rotates', async () => {
    await signIn(page, server.url, server.keys.testSk, '#/settings');
    await page.getByRole('button', { name: 'Rotate keys…' }).click();
    const text = await page.locator('dialog[open]').textContent();
    expect(text).toMatch(/test publishable and secret keys/);
    expect(text).not.toMatch(/four/);
  });

  test('the map opens on the data: an environment with users and no geofence opens around its users', async () => {
    const other = await server.newProject('users only');
    // Two users a kilometre apart: one cluster bubble of 2 on a world map, two separate dots at town scale.
    for (const [id, lng] of [['east', 7.44], ['west', 7.4277]] as const) {
      await server.request('POST', '/v1/track', { key: other.testPk, body: { deviceId: id, userId: id, latitude: 43.7392, longitude: lng, accuracy: 10 } });
    }
    await signIn(page, server.url, other.testSk);
    await page.locator('#map[data-ready]').waitFor();
    // The users' canvas lists what it painted: two users, no bubble ("N users") holding both.
    await page.locator('.user-list summary').click();
    await until('both users painted', async () => (await page.locator('.user-list button').count()) === 2, 10000, 100);
    expect(await page.locator('.user-list button[title]').count()).toBe(0);
    expect(String(await page.locator('#map-status').textContent())).toMatch(/\b2 users\b/);
  });

  test('counts say "1 geofence", "1 user"; a polygon is not given a radius in metres', async () => {
    await server.request('POST', '/v1/track', { key: server.keys.testPk, body: { deviceId: 'd-count', userId: 'counted', latitude: 39.31, longitude: -76.58, accuracy: 10 } });
    const p = await server.newProject('one of each');
    await server.request('PUT', '/v1/geofences/store/one', { key: p.testSk, body: { description: 'Only polygon', type: 'polygon', coordinates: [DISTRICT] } });
    await server.request('POST', '/v1/track', { key: p.testPk, body: { deviceId: 'd1', userId: 'only-user', latitude: 39.31, longitude: -76.58, accuracy: 10 } });
    await signIn(page, server.url, p.testSk);
    await page.locator('#map[data-ready]').waitFor();
    const status = String(await page.locator('#map-status').textContent());
    expect(status).toMatch(/\b1 geofence\b/);
    expect(status).toMatch(/\b1 user\b/);
    expect(status).not.toMatch(/\b1 (geofences|users)\b/);
    // Click inside the polygon, away from the user.
    const box = (await page.locator('#map').boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.3, box.y + box.height * 0.3);
    await page.getByRole('heading', { name: 'Only polygon' }).waitFor();
    const line = String(await page.locator('#details p').first().textContent());
    expect(line).toContain('polygon');
    expect(line).not.toMatch(/\d+ m\b/);
  });

  test('a geofence whose centre is out of view is still drawn where it covers the map', async () => {
    await signIn(page, server.url, server.keys.testSk);
    await page.locator('#map[data-ready]').waitFor();
    const box = (await page.locator('#map').boundingBox())!;
    // Zoom in three times on a point inside the district near its north-east corner: its centre leaves the view.
    const target = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    // The district's north-east quarter lies up and right of the opening view's centre (the data's centre).
    const inside = { x: target.x + box.width * 0.12, y: target.y - box.height * 0.12 };
    for (let i = 0; i < 3; i++) {
      await page.mouse.dblclick(inside.x, inside.y);
      await page.waitForTimeout(600);
    }
    const x = inside.x - box.x, y = inside.y - box.y;
    await until('the district painted under the pointer', async () => (await paintedAt(page, x, y)) > 0, 10000, 200);
  });

  test('a shape just drawn stays on the map while its form is filled in, and is replaced by the saved geofence', async () => {
    await signIn(page, server.url, server.keys.testSk);
    await page.locator('#map[data-ready]').waitFor();
    await page.getByRole('button', { name: 'Draw circle' }).click();
    const box = (await page.locator('#map').boundingBox())!;
    const cx = box.x + box.width / 2, cy = box.y + box.height / 2;
    await page.mouse.click(cx - 200, cy + 150);
    await page.mouse.move(cx - 160, cy + 150);
    await page.mouse.click(cx - 160, cy + 150);
    await page.getByLabel('Description').fill('Still visible');
    expect(await page.locator('.pending-shape').count()).toBe(1);
    await page.getByLabel('Tag').fill('store');
    await page.getByLabel('External ID').fill('still');
    await page.getByRole('button', { name: 'Create geofence' }).click();
    await page.getByText('Users inside (0)').waitFor();
    expect(await page.locator('.pending-shape').count()).toBe(0);
    expect(await paintedAt(page, cx - 200 - box.x, cy + 150 - box.y)).toBeGreaterThan(0);
  });

  test('"Users inside" and the users on the map update live as a user enters', async () => {
    const p = await server.newProject('live users');
    await server.request('PUT', '/v1/geofences/store/live', { key: p.testSk, body: { description: 'Live store', type: 'circle', coordinates: [STORE.lng, STORE.lat], radius: 200 } });
    await signIn(page, server.url, p.testSk);
    await page.locator('#map[data-ready]').waitFor();
    const box = (await page.locator('#map').boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.getByText('Nobody is inside now.').waitFor();
    const tracked = await server.request('POST', '/v1/track', { key: p.testPk, body: { deviceId: 'walker', userId: 'walker', latitude: STORE.lat, longitude: STORE.lng, accuracy: 5 } });
    expect(tracked.body.events.map((e: { type: string }) => e.type)).toContain('user.entered_geofence');
    await page.getByText('Users inside (1)').waitFor({ timeout: 15000 });
    await page.locator('#details').getByText('walker').waitFor();
    await until('the new user counted on the map', async () => /\b1 user\b/.test(String(await page.locator('#map-status').textContent())), 15000, 200);
  });

  test('on a phone, tables fit the screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, server.url, server.keys.testSk, '#/geofences');
    await page.getByText('Seed store').waitFor();
    const overflowing = await page.evaluate(`[...document.querySelectorAll('.table-wrap')].filter((w) => w.scrollWidth > w.clientWidth + 1).length`);
    expect(overflowing).toBe(0);
    await shot(page, 'geofences-phone');
    expect(Number(await page.evaluate('document.scrollingElement.scrollWidth - window.innerWidth'))).toBeLessThanOrEqual(0);
  });

  test('"Run now" without a sync source is unavailable and says what to do first', async () => {
    await signIn(page, server.url, server.keys.testSk, '#/geofences');
    const run = page.getByRole('button', { name: 'Run now' });
    await run.waitFor();
    await until('Run now disabled', () => run.isDisabled(), 10000, 100);
    expect(await page.locator('#sync-run-hint').textContent()).toMatch(/source URL/);
    expect(await page.content()).not.toContain('PUT /v1/geofence-sync first');
  });

  test('the events page names event types in words and says what it lists', async () => {
    await server.request('POST', '/v1/track', { key: server.keys.testPk, body: { deviceId: 'ev', userId: 'ev-user', latitude: STORE.lat, longitude: STORE.lng, accuracy: 5 } });
    await signIn(page, server.url, server.keys.testSk, '#/events');
    const item = page.locator('#event-feed li[data-type="user.entered_geofence"]').first();
    await item.waitFor();
    expect(await item.locator('strong').textContent()).toMatch(/^Entered geofence · /);
    const summary = String(await page.locator('.card > p.muted').first().textContent());
    expect(summary).not.toMatch(/since this page opened/);
    expect(summary).toMatch(/latest/i);
  });

  test('the geofence page fits its map to the shape', async () => {
    const { body } = await server.request('GET', '/v1/geofences/store/district', { key: server.keys.testSk });
    await signIn(page, server.url, server.keys.testSk, `#/geofences/${body.geofence._id}`);
    await page.locator('.geofence-canvas').waitFor({ state: 'attached' });
    await page.waitForTimeout(500);
    // Across the map's middle row: the district painted over a good part of it, with unpainted map on
    // both sides (opened on its centre at a fixed zoom, the 3.3 km square covered the whole map).
    const row = (await page.evaluate(`(() => {
      const c = document.querySelector('.geofence-canvas');
      const d = c.getContext('2d').getImageData(0, Math.floor(c.height / 2), c.width, 1).data;
      const out = [];
      for (let i = 3; i < d.length; i += 4) out.push(d[i] > 0 ? 1 : 0);
      return out;
    })()`)) as number[];
    const painted = row.reduce((a, b) => a + b, 0) / row.length;
    expect(painted).toBeGreaterThan(0.1);
    expect(row[0]).toBe(0);
    expect(row[row.length - 1]).toBe(0);
  });

  test('the first map load moves a bounded number of bytes, not every geofence of the environment', async () => {
    const p = await server.newProject('crowded');
    // 3,000 circles over the city, imported as one CSV: read one by one, about 2.7 MB of list JSON.
    const rows = ['description,tag,externalId,type,radius,coordinates'];
    for (let i = 0; i < 3000; i++) rows.push(`Store ${i},crowd,${i},circle,100,"[${(-76.70 + (i % 60) * 0.004).toFixed(4)},${(39.25 + Math.floor(i / 60) * 0.003).toFixed(4)}]"`);
    const imported = await fetch(`${server.url}/v1/geofences/import`, { method: 'POST', headers: { authorization: p.testSk, 'content-type': 'text/csv' }, body: rows.join('\n') });
    expect(imported.status).toBe(200);
    let apiBytes = 0;
    let ready = false;
    page.on('response', (res) => {
      if (!new URL(res.url()).pathname.startsWith('/v1/')) return;
      void res.body().then((b) => { if (!ready) apiBytes += b.length; }).catch(() => undefined);
    });
    await signIn(page, server.url, p.testSk);
    await page.locator('#map[data-ready]').waitFor({ timeout: 60000 });
    ready = true;
    await page.waitForTimeout(200);
    expect(apiBytes).toBeLessThan(300 * 1024);
    expect(String(await page.locator('#map-status').textContent())).toMatch(/3,000 geofences/);
  });
});

const monaco = fixturesPresent('dashboard isochrones', path.join(OSM, 'monaco-osrm.osm.pbf'));
const CASINO: [number, number] = [7.4277, 43.7392];

(monaco ? withChromium('dashboard isochrones in a browser') : describe.skip)('dashboard isochrones (Monaco imported)', () => {
  let server: TestServer;
  let chrome: BrowserPage;
  let page: Page;
  let id: string;

  beforeAll(async () => {
    buildDashboard();
    server = await serverWithExtracts({ monaco: 'monaco-osrm.osm.pbf' });
    const made = await server.request('PUT', '/v1/geofences/iso/casino', {
      key: server.keys.testSk, body: { description: 'Casino 5 min', type: 'isochrone', coordinates: CASINO, radius: 5, mode: 'car' },
    });
    expect(made.status).toBe(200);
    id = made.body.geofence._id;
    chrome = await browserPage();
    page = chrome.page;
  }, 300_000);

  afterAll(() => closeInOrder(chrome, server));

  test('the geofence page draws the imported roads under the shape', async () => {
    const roads = page.waitForResponse((r) => r.url().includes('/v1/data/roads') && r.status() === 200, { timeout: 20000 });
    await signIn(page, server.url, server.keys.testSk, `#/geofences/${id}`);
    const answer = await (await roads).json();
    expect(answer.roads.length).toBeGreaterThan(10);
  });

  test('POST /v1/geofences/preview computes an isochrone as a save would, and saves nothing', async () => {
    const body = { description: 'Casino on foot', type: 'isochrone', coordinates: CASINO, radius: 3, mode: 'foot' };
    const preview = await server.request('POST', '/v1/geofences/preview', { key: server.keys.testSk, body });
    expect([preview.status, preview.body.meta]).toEqual([200, { code: 200 }]);
    expect([preview.body.geofence.type, preview.body.geofence.geometryRadius, preview.body.geofence.mode]).toEqual(['isochrone', 3, 'foot']);
    expect(preview.body.geofence.geometry.coordinates[0].length).toBeGreaterThan(4);
    const list = await server.request('GET', '/v1/geofences', { key: server.keys.testSk });
    expect(list.body.geofences.map((g: { externalId: string }) => g.externalId)).toEqual(['casino']);
    const bad = await server.request('POST', '/v1/geofences/preview', { key: server.keys.testSk, body: { ...body, radius: 0 } });
    expect(bad.status).toBe(400);
    expect(bad.body.meta.param).toBeTruthy();
    expect((await server.request('POST', '/v1/geofences/preview', { key: server.keys.testPk, body })).status).toBe(403);
  });

  test('changing an isochrone\'s time or mode shows its new area before saving', async () => {
    await page.goto(`${server.url}/dashboard/#/geofences/${id}`);
    const minutes = page.getByLabel(/Travel time/);
    await minutes.waitFor();
    await minutes.fill('2');
    await page.getByLabel('Travel mode').selectOption('foot');
    await until('the new area drawn', async () => /2 min by foot/.test(String(await page.locator('#isochrone-preview').textContent())), 30000, 200);
    expect(await page.locator('path.isochrone-preview').count()).toBe(1);
    await shot(page, 'geofence-isochrone-preview');
    // Not saved: the stored geofence is still 5 minutes by car.
    const stored = await server.request('GET', '/v1/geofences/iso/casino', { key: server.keys.testSk });
    expect([stored.body.geofence.geometryRadius, stored.body.geofence.mode]).toEqual([5, 'car']);
    await page.goto(`${server.url}/dashboard/#/geofences`);
  }, 60_000);

  test('editing an isochrone shows its travel time and mode, and saves it as an isochrone', async () => {
    await page.goto(`${server.url}/dashboard/#/geofences/${id}`);
    const minutes = page.getByLabel(/Travel time/);
    await minutes.waitFor();
    expect(await minutes.inputValue()).toBe('5');
    expect(await page.getByLabel('Travel mode').inputValue()).toBe('car');
    await page.waitForTimeout(1000);
    await shot(page, 'geofence-isochrone');
    expect(await page.getByLabel(/Radius/).count()).toBe(0);
    await minutes.fill('6');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(/#\/geofences$/);
    const saved = await server.request('GET', '/v1/geofences/iso/casino', { key: server.keys.testSk });
    expect([saved.body.geofence.type, saved.body.geofence.geometryRadius, saved.body.geofence.mode]).toEqual(['isochrone', 6, 'car']);
  });
});
