// The user page's location history and events in headless Chromium against a real gateway (issue 33):
// the track is the user's stored locations of the chosen period (last hour, 24 hours, 7 days), each point
// telling its time on hover and its details from the list under the map, and the events are the user's
// own, found however many newer events other users made. Screenshot to $WAYMARK_SCREENSHOTS when set.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server';
import { buildDashboard, browserPage, closeInOrder, withChromium, type BrowserPage } from '../support/chromium';

const describeBrowser = withChromium('user page history in a browser');

const START = { lat: 39.2979, lng: -76.5905 };
const MINUTE = 60_000;

describeBrowser('user page: location history and own events', () => {
  let server: TestServer;
  let chrome: BrowserPage;
  let page: Page;
  /** The walker's updates: [minutes ago, metres north of START]; the last five are within the hour. */
  const walk: Array<[number, number]> = [[2 * 24 * 60, 0], [3 * 60, 300], [50, 600], [40, 900], [30, 1200], [20, 1500], [10, 1800]];

  beforeAll(async () => {
    buildDashboard();
    server = await startTestServer();
    const { testPk: pk, testSk: sk } = server.keys;
    await server.request('PUT', '/v1/geofences/store/harbor', { key: sk, body: { description: 'Harbor store', type: 'circle', coordinates: [START.lng, START.lat + 1500 / 111_195], radius: 100 } });
    const now = Date.now();
    for (const [ago, north] of walk) {
      const r = await server.request('POST', '/v1/track', {
        key: pk, body: { deviceId: 'walker-device', userId: 'walker', latitude: START.lat + north / 111_195, longitude: START.lng, accuracy: 10, updatedAt: new Date(now - ago * MINUTE).toISOString() },
      });
      expect(r.status).toBe(200);
    }
    // 1,100 newer events of other users: the walker's entry is not among the environment's latest 1,000.
    const conversions = Array.from({ length: 1100 }, (_, i) => i);
    for (let i = 0; i < conversions.length; i += 50) {
      await Promise.all(conversions.slice(i, i + 50).map((n) => server.request('POST', '/v1/events', { key: pk, body: { name: 'checkout', userId: `shopper-${n % 7}` } })));
    }
    chrome = await browserPage();
    page = chrome.page;
    page.setDefaultTimeout(10_000);
    await page.addInitScript(`sessionStorage.setItem('waymark.dashboard.keys', JSON.stringify({ test: ${JSON.stringify(sk)}, current: 'test' }))`);
  }, 120_000);

  afterAll(() => closeInOrder(chrome, server));

  const trackCount = async (): Promise<number> => Number(await page.locator('#user-map').getAttribute('data-track'));

  test('the track is the stored history of the chosen period, its points tell their time, the events are the user\'s own', async () => {
    await page.goto(`${server.url}/dashboard/#/users/walker`);
    await page.getByRole('heading', { name: 'walker' }).waitFor();
    await page.locator('#user-map[data-track]').waitFor();
    // Last 24 hours by default: all but the update of two days ago.
    expect(await trackCount()).toBe(6);
    expect(await page.getByRole('status').filter({ hasText: 'locations' }).textContent()).toBe('6 locations in the last 24 hours.');
    expect(await page.locator('#user-map').getAttribute('data-capped')).toBe('false');

    const period = page.getByLabel('Period');
    await period.selectOption({ label: 'Last hour' });
    await page.locator('#user-map[data-period="hour"]').waitFor();
    expect(await trackCount()).toBe(5);
    await period.selectOption({ label: 'Last 7 days' });
    await page.locator('#user-map[data-period="week"]').waitFor();
    expect(await trackCount()).toBe(7);
    expect(await page.locator('#track-status').textContent()).toBe('7 locations in the last 7 days.');

    // From the list (the keyboard's way): the newest point opens its details on the map, with its time
    // and the event it made.
    await page.getByText('The locations as a list').click();
    const rows = page.locator('#track-list tbody tr');
    expect(await rows.count()).toBe(7);
    await rows.nth(1).getByRole('button', { name: 'Show on map' }).click();
    const popup = page.locator('.leaflet-popup-content');
    await popup.waitFor();
    const stored = (await server.request('GET', '/v1/users/walker/locations', { key: server.keys.testSk })).body.locations;
    expect(stored[1].events).toEqual(['user.entered_geofence']);
    const time = await page.evaluate((iso) => new Date(iso).toLocaleString(), stored[1].createdAt as string);
    expect(await popup.textContent()).toBe(`${time} · accuracy 10 m · Entered geofence`);
    await page.locator('.leaflet-popup-close-button').click();
    await popup.waitFor({ state: 'detached' });
    // Hovering the point (now at the map's centre) names its time.
    const box = (await page.locator('#user-map').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2 + 1, box.y + box.height / 2 + 1);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const tooltip = page.locator('.leaflet-tooltip').filter({ hasNotText: 'last location' });
    await tooltip.first().waitFor();
    expect(await tooltip.first().textContent()).toBe(time);

    // The user's own events, though 1,100 newer events of others came after them.
    const events = page.locator('#user-events tbody tr');
    expect(await events.count()).toBe(2);
    expect(await events.nth(0).textContent()).toContain('Exited geofence');
    expect(await events.nth(1).textContent()).toContain('Entered geofence');
    expect(await events.nth(1).textContent()).toContain('Harbor store');

    const dir = process.env.WAYMARK_SCREENSHOTS;
    if (dir) {
      await page.locator('#user-map').scrollIntoViewIfNeeded();
      await page.waitForTimeout(500);
      await page.screenshot({ path: path.join(dir, 'user-history.png'), fullPage: false });
    }
  });
});
