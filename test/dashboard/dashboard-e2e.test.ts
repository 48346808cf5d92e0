// The dashboard end to end in headless Chromium against a real gateway: sign in, draw a geofence on the
// map, upload a CSV with a bad row and read the report, watch a tracked entry appear in the live feed,
// redeliver a dead letter, rotate keys. Screenshots of the main views go to $WAYMARK_SCREENSHOTS when set.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server';
import { fastWebhooks } from '../api/webhooks-config';
import { startReceiver, type TestReceiver } from '../api/webhooks-receiver';
import { buildDashboard, browserPage, closeInOrder, withChromium, type BrowserPage } from '../support/chromium';

const describeBrowser = withChromium('dashboard in a browser');

const SEED = { lat: 39.2979, lng: -76.5905 };

describeBrowser('dashboard in a browser', () => {
  let server: TestServer;
  let receiver: TestReceiver;
  let chrome: BrowserPage;
  let page: Page;

  const shot = async (name: string) => {
    const dir = process.env.WAYMARK_SCREENSHOTS;
    if (dir) await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: false });
  };

  beforeAll(async () => {
    buildDashboard();
    receiver = await startReceiver();
    server = await startTestServer({ webhooks: fastWebhooks({ maxAttempts: 2 }) });
    // A geofence to frame the map on, so drawing happens at street scale.
    const seeded = await server.request('PUT', '/v1/geofences/store/seed', {
      key: server.keys.testSk, body: { description: 'Seed store', type: 'circle', coordinates: [SEED.lng, SEED.lat], radius: 150 },
    });
    expect(seeded.status).toBe(200);
    chrome = await browserPage();
    page = chrome.page;
  }, 60000);

  afterAll(() => closeInOrder(chrome, server, receiver));

  test('refuses a key that is not a secret key, then signs in with the test secret key', async () => {
    await page.goto(`${server.url}/dashboard/`);
    await page.getByLabel('Secret key', { exact: true }).fill(server.keys.testPk);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('That is not a secret key').waitFor();
    await page.getByLabel('Secret key', { exact: true }).fill(server.keys.testSk);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('#map[data-ready]').waitFor();
    await expect(page.locator('#map-status').textContent()).resolves.toMatch(/^1 geofence, 0 users in view/);
    await shot('map-signed-in');
  });

  test('draws a circle on the map and saves it as a geofence', async () => {
    await page.getByRole('button', { name: 'Draw circle' }).click();
    const box = (await page.locator('#map').boundingBox())!;
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    await page.mouse.click(cx + 150, cy);
    await page.mouse.move(cx + 190, cy);
    await page.mouse.click(cx + 190, cy);
    await page.getByLabel('Description').fill('Drawn corner');
    await page.getByLabel('Tag').fill('store');
    await page.getByLabel('External ID').fill('drawn-1');
    await page.getByRole('button', { name: 'Create geofence' }).click();
    await page.getByText('Users inside (0)').waitFor();
    const saved = await server.request('GET', '/v1/geofences/store/drawn-1', { key: server.keys.testSk });
    expect(saved.status).toBe(200);
    expect(saved.body.geofence.type).toBe('circle');
    expect(saved.body.geofence.description).toBe('Drawn corner');
    // East of the seed, at street scale: a few hundred metres away, with a radius of tens of metres.
    const [lng, lat] = saved.body.geofence.geometryCenter.coordinates;
    expect(Math.abs(lat - SEED.lat)).toBeLessThan(0.002);
    expect(lng).toBeGreaterThan(SEED.lng);
    expect(saved.body.geofence.geometryRadius).toBeGreaterThanOrEqual(10);
    expect(saved.body.geofence.geometryRadius).toBeLessThan(1000);
  });

  test('uploads a CSV with a bad row and shows the per-row report, importing nothing', async () => {
    await page.goto(`${server.url}/dashboard/#/geofences`);
    await page.getByText('Drawn corner').waitFor();
    const csv = 'description,tag,externalId,type,radius,coordinates\n'
      + `Good row,csv,1,circle,100,"[${SEED.lng},${SEED.lat}]"\n`
      + `Bad row,csv,2,circle,5,"[${SEED.lng},${SEED.lat}]"\n`;
    await page.getByLabel('CSV file').setInputFiles({ name: 'stores.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('button', { name: 'Upload' }).click();
    const report = page.locator('#import-report');
    await report.waitFor();
    await expect(report.textContent()).resolves.toMatch(/Nothing imported: 1 problem/);
    await expect(report.locator('td', { hasText: /^radius$/ }).count()).resolves.toBe(1);
    await shot('geofences');
    const listed = await server.request('GET', '/v1/geofences', { key: server.keys.testSk, query: { tag: 'csv' } });
    expect(listed.body.geofences).toHaveLength(0);
  });

  test('shows an entry tracked through the API in the live feed without reloading', async () => {
    await page.goto(`${server.url}/dashboard/#/events`);
    // An empty list has no height, so it is attached but not yet "visible".
    await page.locator('#event-feed').waitFor({ state: 'attached' });
    const tracked = await server.request('POST', '/v1/track', {
      key: server.keys.testPk, body: { deviceId: 'dash-device', userId: 'dash-user', latitude: SEED.lat, longitude: SEED.lng, accuracy: 5 },
    });
    expect(tracked.status).toBe(200);
    expect(tracked.body.events.map((e: { type: string }) => e.type)).toContain('user.entered_geofence');
    const item = page.locator('#event-feed li[data-type="user.entered_geofence"]');
    await item.waitFor({ timeout: 10000 });
    await expect(item.textContent()).resolves.toContain('dash-user');
    await shot('events');
  });

  test('redelivers a dead letter', async () => {
    receiver.fallback = { status: 500 };
    const created = await server.request('POST', '/v1/webhooks', { key: server.keys.testSk, body: { url: `${receiver.url}/hook` } });
    expect(created.status).toBe(200);
    const id = created.body.webhook._id;
    await server.request('POST', '/v1/track', {
      key: server.keys.testPk, body: { deviceId: 'dash-device', userId: 'dash-user', latitude: SEED.lat + 0.05, longitude: SEED.lng, accuracy: 5 },
    });
    // Wait for the endpoint to give up (two attempts, short backoff).
    for (let i = 0; i < 100; i++) {
      const dead = await server.request('GET', `/v1/webhooks/${id}/dead-letters`, { key: server.keys.testSk });
      if (dead.body.deadLetters.length > 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    receiver.fallback = { status: 200 };
    const before = receiver.received.length;
    await page.goto(`${server.url}/dashboard/#/webhooks/${id}`);
    const redeliver = page.getByRole('button', { name: /^Redeliver dead letter/ });
    await redeliver.first().waitFor();
    await shot('webhooks');
    await redeliver.first().click();
    await page.locator('#no-dead-letters').waitFor();
    await receiver.waitFor((all) => all.length > before && all[all.length - 1].answer.status === 200, 10000, 'the redelivered request');
  });

  test('fits a phone screen: no sideways scrolling, the map and the sections reachable', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.url}/dashboard/#/map`);
    await page.locator('#map[data-ready]').waitFor();
    await shot('map-phone');
    const overflow = Number(await page.evaluate('document.scrollingElement.scrollWidth - window.innerWidth'));
    expect(overflow).toBeLessThanOrEqual(0);
    const box = (await page.locator('#map').boundingBox())!;
    expect(box.width).toBeLessThanOrEqual(390);
    expect(box.height).toBeGreaterThan(300);
    await page.getByRole('link', { name: 'Events' }).click();
    await page.locator('#event-feed').waitFor({ state: 'attached' });
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  test('every control has an accessible name', async () => {
    await page.goto(`${server.url}/dashboard/#/geofences`);
    await page.getByText('Drawn corner').waitFor();
    const unnamed = await page.evaluate(`[...document.querySelectorAll('input, select, textarea, button')]
      .filter((el) => !el.labels?.length && !el.getAttribute('aria-label') && !el.textContent.trim())
      .map((el) => el.outerHTML.slice(0, 80))`);
    expect(unnamed).toEqual([]);
  });

  test('rotates the test keys after a confirmation and keeps working with the new one', async () => {
    await page.goto(`${server.url}/dashboard/#/settings`);
    await page.getByLabel('Stop detection').waitFor();
    await shot('settings');
    await page.getByRole('button', { name: 'Rotate keys…' }).click();
    await page.getByRole('button', { name: 'Rotate keys', exact: true }).click();
    await page.getByText('New keys').waitFor();
    const old = await server.request('GET', '/v1/project/settings', { key: server.keys.testSk });
    expect(old.status).toBe(401);
    // The live secret key was not rotated by a test key.
    const live = await server.request('GET', '/v1/project/settings', { key: server.keys.liveSk });
    expect(live.status).toBe(200);
    await page.goto(`${server.url}/dashboard/#/geofences`);
    await page.getByText('Drawn corner').waitFor();
  });
});
