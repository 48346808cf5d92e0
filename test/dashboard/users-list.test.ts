// The dashboard's users list searches and filters every user on the server (issue 33), not only the 100
// it loaded: users tracked first, then 150 more, are found by the search box (as typed, without pressing
// Search) and by "Show". In headless Chromium against a real gateway.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server';
import { until } from '../support/until';
import { buildDashboard, browserPage, closeInOrder, withChromium, type BrowserPage } from '../support/chromium';

const describeBrowser = withChromium('users list in a browser');
const STORE = { lat: 39.2979, lng: -76.5905 };

describeBrowser('users list over every user', () => {
  let server: TestServer;
  let chrome: BrowserPage;
  let page: Page;

  const track = (userId: string, lat: number, lng: number, extra: Record<string, unknown> = {}) =>
    server.request('POST', '/v1/track', { key: server.keys.testPk, body: { deviceId: `${userId}-device`, userId, latitude: lat, longitude: lng, accuracy: 8, ...extra } });
  const rows = () => page.locator('#user-list tbody').textContent().then(String);
  /** Waits for the list drawn for this query (the view marks it) and returns its rows' text. */
  const listFor = async (query: string) => {
    await until(`the list for ${query}`, async () => (await page.locator('#user-list').getAttribute('data-query')) === query, 15000, 50);
    return rows();
  };

  beforeAll(async () => {
    buildDashboard();
    server = await startTestServer();
    const sk = server.keys.testSk;
    await server.request('PUT', '/v1/geofences/store/harbor', { key: sk, body: { description: 'Harbor store', type: 'circle', coordinates: [STORE.lng, STORE.lat], radius: 200 } });
    await server.request('PATCH', '/v1/project/settings', { key: sk, body: { fraud: true } });
    // The users to find, tracked first: the list's newest 100 are the 150 tracked after them.
    const trip = await server.request('POST', '/v1/trips', { key: server.keys.testPk, body: { externalId: 'order-9', userId: 'zelda-trip', mode: 'car', status: 'started' } });
    expect(trip.status).toBe(200);
    expect((await track('zelda-trip', STORE.lat + 0.05, STORE.lng)).status).toBe(200);
    expect((await track('yusuf-inside', STORE.lat, STORE.lng)).status).toBe(200);
    // Flagged by the fraud step: the SDK says its location is mocked.
    expect((await track('xavier-mocked', STORE.lat + 0.06, STORE.lng, { mocked: true })).status).toBe(200);
    for (let i = 0; i < 150; i++) expect((await track(`bulk-${String(i).padStart(3, '0')}`, STORE.lat + 0.03 + i * 1e-4, STORE.lng + 0.03)).status).toBe(200);
    chrome = await browserPage();
    page = chrome.page;
    await page.addInitScript(`sessionStorage.setItem('waymark.dashboard.keys', JSON.stringify({ test: ${JSON.stringify(sk)}, current: 'test' }))`);
  }, 120000);

  afterAll(() => closeInOrder(chrome, server));

  test('a user past the first 100 is found by the search box and by "Show"', async () => {
    await page.goto(`${server.url}/dashboard/#/users`);
    const first = await listFor('');
    expect(first).not.toContain('zelda-trip');
    expect(await page.locator('#user-list tbody tr').count()).toBe(100);

    await page.getByLabel('Search').fill('ZELDA');
    const searched = await listFor('search=ZELDA');
    expect(searched).toContain('zelda-trip');
    expect(await page.locator('#user-list tbody tr').count()).toBe(1);
    expect(await page.locator('#user-list caption').textContent()).toMatch(/^1 user matches \(all 153 searched\)$/);

    await page.getByLabel('Search').fill('');
    await page.getByLabel('Show').selectOption('inside');
    const inside = await listFor('inside=true');
    expect(inside).toContain('yusuf-inside');
    expect(inside).toContain('Harbor store');
    expect(await page.locator('#user-list tbody tr').count()).toBe(1);

    await page.getByLabel('Show').selectOption('trip');
    expect(await listFor('onTrip=true')).toContain('order-9');
    const dir = process.env.WAYMARK_SCREENSHOTS;
    if (dir) await page.screenshot({ path: path.join(dir, 'users-filtered.png'), fullPage: false });

    // An exact id still opens the user.
    await page.getByLabel('Show').selectOption('');
    await page.getByLabel('Search').fill('yusuf-inside');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('heading', { name: 'yusuf-inside' }).waitFor();
  });

  test('"On a trip", "Inside geofence…" and "With fraud flags" are exact: the line says how many, the geofence picked by tag/externalId', async () => {
    await page.goto('about:blank');
    await page.goto(`${server.url}/dashboard/#/users`);
    await listFor('');
    await page.getByLabel('Show').selectOption('trip');
    expect(await listFor('onTrip=true')).toContain('zelda-trip');
    expect(await page.locator('#user-list caption').textContent()).toBe('1 user on a trip');

    await page.getByLabel('Show').selectOption('geofence');
    const box = page.getByLabel('Geofence');
    await box.waitFor();
    // The choices are the geofences, by tag/externalId with their description.
    await until('the geofence choices', async () => (await page.locator('#user-geofences option').count()) === 1, 15000, 50);
    expect(await page.locator('#user-geofences option').getAttribute('value')).toBe('store/harbor');
    await box.fill('store/harbor');
    await box.press('Enter');
    const id = (await server.request('GET', '/v1/geofences/store/harbor', { key: server.keys.testSk })).body.geofence._id as string;
    const inside = await listFor(`geofenceId=${id}`);
    expect(inside).toContain('yusuf-inside');
    expect(await page.locator('#user-list tbody tr').count()).toBe(1);
    expect(await page.locator('#user-list caption').textContent()).toBe('1 user inside Harbor store');

    // A search narrows the exact answer, still counted.
    await page.getByLabel('Search').fill('nobody');
    await until('the narrowed list', async () => (await page.locator('#user-list').getAttribute('data-query')) === `search=nobody&geofenceId=${id}`, 15000, 50);
    expect(await page.locator('#user-list p.muted').textContent()).toBe('0 users inside Harbor store match.');
    await page.getByLabel('Search').fill('');

    // With fraud flags: exact too once the server keeps the flagged users' rows (its answer says so).
    await page.getByLabel('Show').selectOption('fraud');
    const flagged = await listFor('fraud=true');
    expect(flagged).toContain('xavier-mocked');
    expect(flagged).toContain('mocked');
    expect(await page.locator('#user-list tbody tr').count()).toBe(1);
    expect(await page.locator('#user-list caption').textContent()).toBe('1 user with fraud flags');
    await page.getByLabel('Show').selectOption('geofence');

    // A geofence nobody knows is said, not listed.
    await box.fill('store/nowhere');
    await box.press('Enter');
    await until('the error', async () => /No geofence "store\/nowhere"/.test(String(await page.locator('.card p.error').textContent())), 15000, 50);
  });

  test('"Load more" continues the plain list past the first 100', async () => {
    await page.goto('about:blank');
    await page.goto(`${server.url}/dashboard/#/users`);
    await listFor('');
    await page.getByRole('button', { name: 'Load more' }).click();
    await until('the second page', async () => (await page.locator('#user-list tbody tr').count()) === 153, 15000, 50);
    expect(await rows()).toContain('zelda-trip');
    expect(await page.getByRole('button', { name: 'Load more' }).isHidden()).toBe(true);
  });

  test('the list is live: a new user comes to its top, a user who moves comes back up, a filter\'s count follows', async () => {
    await page.goto(`${server.url}/dashboard/#/users`);
    await page.getByLabel('Show').selectOption('');
    await page.getByLabel('Search').fill('');
    await listFor('');
    const top = async () => String(await page.locator('#user-list tbody tr').first().textContent());
    expect(await top()).not.toContain('newcomer');
    expect((await track('newcomer', STORE.lat + 0.07, STORE.lng)).status).toBe(200);
    await until('the new user at the top without a reload', async () => (await top()).includes('newcomer'), 15000, 200);
    // An old user moving again comes back to the top, listed once.
    expect((await track('bulk-000', STORE.lat + 0.08, STORE.lng)).status).toBe(200);
    await until('the user who moved at the top', async () => (await top()).includes('bulk-000'), 15000, 200);
    expect((await rows()).split('bulk-000').length - 1).toBe(1);
    // An exact filter: a user who enters the geofence is counted without a reload.
    await page.getByLabel('Show').selectOption({ label: 'Inside a geofence' });
    await listFor('inside=true');
    const before = String(await page.locator('#user-list caption').textContent());
    expect(before).not.toContain('walker-in');
    expect((await track('walker-in', STORE.lat, STORE.lng)).status).toBe(200);
    await until('the user who entered listed', async () => (await rows()).includes('walker-in'), 15000, 200);
  });
});
