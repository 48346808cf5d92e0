// Geofence editing on the map (issue 33), in headless Chromium against a real gateway: a polygon moved
// whole by its middle handle, and a shape snapped to an address found by the forward geocoder (a small
// town imported here, so no fixtures are needed). Each failed before: the page had corner handles only
// and no address search.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { importGeocoding, type OsmElement } from '../support/geocoding-extracts';
import { startTestServer, tempDataDir, type TestServer } from '../support/server';
import { until } from '../support/until';
import { buildDashboard, browserPage, closeInOrder, withChromium, type BrowserPage } from '../support/chromium';

// A town on one street: Main Street running east with two numbered addresses.
const node = (id: number, lon: number, lat: number, tags?: Record<string, string>): OsmElement => ({ type: 'node', id, lon, lat, tags });
const addr = (number: string) => ({ 'addr:housenumber': number, 'addr:street': 'Main Street', 'addr:postcode': '62701' });
const ELEMENTS: OsmElement[] = [
  node(1, -89.7, 39.76), node(2, -89.6, 39.76), node(3, -89.6, 39.84), node(4, -89.7, 39.84),
  node(10, -89.66, 39.8), node(11, -89.64, 39.8),
  node(12, -89.66, 39.8001, addr('1')), node(13, -89.643, 39.8001, addr('41')),
  { type: 'way', id: 100, nodes: [1, 2, 3, 4, 1], tags: {} },
  { type: 'way', id: 103, nodes: [10, 11], tags: { highway: 'residential', name: 'Main Street' } },
  { type: 'relation', id: 200, members: [{ type: 'way', ref: 100, role: 'outer' }], tags: { boundary: 'administrative', admin_level: '8', name: 'Springfield' } },
];
const ADDRESS_41: [number, number] = [-89.643, 39.8001];

const RING: Array<[number, number]> = [[-89.655, 39.795], [-89.652, 39.795], [-89.652, 39.797], [-89.655, 39.797], [-89.655, 39.795]];

// The machine these run on is shared: a page load and a geocoder answer can each take seconds.
jest.setTimeout(120_000);

withChromium('geofence map editing in a browser')('geofence editing on the map', () => {
  let server: TestServer;
  let chrome: BrowserPage;
  let page: Page;

  const shot = async (name: string) => {
    const dir = process.env.WAYMARK_SCREENSHOTS;
    if (dir) await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: false });
  };
  const put = (externalId: string, body: Record<string, unknown>) =>
    server.request('PUT', `/v1/geofences/edit/${externalId}`, { key: server.keys.testSk, body });
  const stored = async (externalId: string) => (await server.request('GET', `/v1/geofences/edit/${externalId}`, { key: server.keys.testSk })).body.geofence;
  const corners = async () => JSON.parse(await page.getByLabel(/^Corners/).inputValue()) as Array<[number, number]>;

  beforeAll(async () => {
    buildDashboard();
    const dataDir = tempDataDir();
    await importGeocoding(dataDir, 'springfield', ELEMENTS);
    server = await startTestServer({ dataDir });
    chrome = await browserPage();
    page = chrome.page;
    await page.addInitScript(`sessionStorage.setItem('waymark.dashboard.keys', JSON.stringify({ test: ${JSON.stringify(server.keys.testSk)}, current: 'test' }))`);
  }, 120_000);

  afterAll(() => closeInOrder(chrome, server));

  test('a polygon is moved whole by dragging its middle handle: every corner shifts alike, Save keeps it', async () => {
    const made = await put('block', { description: 'Block', type: 'polygon', coordinates: [RING] });
    expect(made.status).toBe(200);
    await page.goto(`${server.url}/dashboard/#/geofences/${made.body.geofence._id}`);
    const middle = page.locator('[title^="Whole shape"]');
    await middle.waitFor();
    const box = (await middle.boundingBox())!;
    const cornerBefore = (await page.locator('[title^="Corner 1"]').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 90, box.y + box.height / 2 + 50, { steps: 10 });
    await page.mouse.up();
    const moved = await corners();
    expect(moved).toHaveLength(RING.length);
    const [dLng, dLat] = [moved[0][0] - RING[0][0], moved[0][1] - RING[0][1]];
    expect(dLng).toBeGreaterThan(0.0005); // east
    expect(dLat).toBeLessThan(-0.0002); // south (down the screen)
    moved.forEach(([x, y], i) => {
      expect(x - RING[i][0]).toBeCloseTo(dLng, 5);
      expect(y - RING[i][1]).toBeCloseTo(dLat, 5);
    });
    // The corner handles went with it.
    const corner = (await page.locator('[title^="Corner 1"]').boundingBox())!;
    expect(corner.x - cornerBefore.x).toBeGreaterThan(80);
    expect(corner.y - cornerBefore.y).toBeGreaterThan(40);
    await shot('geofence-move-polygon');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(/#\/geofences$/);
    const saved = await stored('block');
    expect(saved.type).toBe('polygon');
    expect(saved.geometry.coordinates[0]).toEqual(moved);
  });

  test('a circle snaps to an address typed in the search box: the geocoder finds it, the centre moves there, Save keeps it', async () => {
    const made = await put('kiosk', { description: 'Kiosk', type: 'circle', coordinates: [-89.68, 39.78], radius: 120 });
    expect(made.status).toBe(200);
    await page.goto(`${server.url}/dashboard/#/geofences/${made.body.geofence._id}`);
    await page.getByLabel('Move to an address').fill('41 Main Street');
    const answer = page.waitForResponse((r) => r.url().includes('/v1/geocode/forward'));
    await page.getByRole('button', { name: 'Move here' }).click();
    expect((await answer).status()).toBe(200);
    await until('the centre moved to the address', async () => (await page.getByLabel('Centre longitude').inputValue()).startsWith('-89.64'), 10000, 100);
    const lng = Number(await page.getByLabel('Centre longitude').inputValue());
    const lat = Number(await page.getByLabel('Centre latitude').inputValue());
    expect(lng).toBeCloseTo(ADDRESS_41[0], 3);
    expect(lat).toBeCloseTo(ADDRESS_41[1], 3);
    expect(await page.getByLabel(/Radius/).inputValue()).toBe('120');
    await shot('geofence-snap-address');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(/#\/geofences$/);
    const saved = await stored('kiosk');
    expect(saved.geometryCenter.coordinates).toEqual([lng, lat]);
    expect(saved.geometryRadius).toBe(120);
  });

  test('a polygon snaps to an address with its shape kept; an unknown address says so and moves nothing', async () => {
    const made = await put('lot', { description: 'Lot', type: 'polygon', coordinates: [RING] });
    await page.goto(`${server.url}/dashboard/#/geofences/${made.body.geofence._id}`);
    await page.getByLabel('Move to an address').fill('Qqqxv Zzyzx');
    await page.getByRole('button', { name: 'Move here' }).click();
    await page.locator('[role="alert"]', { hasText: 'No address found' }).waitFor({ timeout: 20000 });
    expect(await corners()).toEqual(RING);
    await page.getByLabel('Move to an address').fill('41 Main Street');
    await page.getByRole('button', { name: 'Move here' }).click();
    await until('the corners moved to the address', async () => (await corners())[0][0] !== RING[0][0], 10000, 100);
    const moved = await corners();
    const mid = (r: Array<[number, number]>) => r.slice(0, -1).reduce(([a, b], [x, y]) => [a + x / (r.length - 1), b + y / (r.length - 1)], [0, 0]);
    const [mx, my] = mid(moved);
    expect(mx).toBeCloseTo(ADDRESS_41[0], 3);
    expect(my).toBeCloseTo(ADDRESS_41[1], 3);
    // Same shape: each side as long as before.
    moved.forEach(([x, y], i) => {
      expect(x - moved[0][0]).toBeCloseTo(RING[i][0] - RING[0][0], 5);
      expect(y - moved[0][1]).toBeCloseTo(RING[i][1] - RING[0][1], 5);
    });
  });

  test('the map has a search box that geocodes: an address typed there is shown, and the map goes to it', async () => {
    await page.goto(`${server.url}/dashboard/#/map`);
    await page.locator('#map[data-ready]').waitFor({ timeout: 60000 });
    await page.getByLabel('Find an address').fill('41 Main Street');
    await page.getByRole('button', { name: 'Go', exact: true }).click();
    const pin = page.locator('[title^="Found: "]');
    await pin.waitFor({ timeout: 60000 });
    // The map went there: the pin is in the middle of the map.
    const map = (await page.locator('#map').boundingBox())!;
    const at = (await pin.boundingBox())!;
    expect(Math.abs(at.x + at.width / 2 - (map.x + map.width / 2))).toBeLessThan(5);
    expect(Math.abs(at.y + at.height / 2 - (map.y + map.height / 2))).toBeLessThan(5);
    await shot('map-address-search');
    await page.getByLabel('Find an address').fill('Qqqxv Zzyzx');
    await page.getByRole('button', { name: 'Go', exact: true }).click();
    await page.locator('[role="alert"]', { hasText: 'No address found' }).waitFor({ timeout: 20000 });
  });

  test('the search box offers the autocomplete\'s addresses as they are typed, chosen with the arrow keys and Enter', async () => {
    await page.goto(`${server.url}/dashboard/#/map`);
    await page.locator('#map[data-ready]').waitFor({ timeout: 60000 });
    const box = page.getByRole('combobox', { name: 'Find an address' });
    await box.fill('');
    await box.pressSequentially('41 Main', { delay: 30 });
    const list = page.getByRole('listbox', { name: 'Suggested addresses' });
    await list.getByRole('option').first().waitFor({ timeout: 20000 });
    expect(await box.getAttribute('aria-expanded')).toBe('true');
    const offered = await list.getByRole('option').allTextContents();
    expect(offered.some((o) => o.includes('41 Main Street'))).toBe(true);
    await shot('map-address-suggestions');
    const at = offered.findIndex((o) => o.includes('41 Main Street'));
    for (let i = 0; i <= at; i++) await box.press('ArrowDown');
    expect(await box.getAttribute('aria-activedescendant')).toBe(await list.getByRole('option').nth(at).getAttribute('id'));
    await box.press('Enter');
    const pin = page.locator('[title^="Found: "]');
    await pin.waitFor({ timeout: 20000 });
    expect(await pin.getAttribute('title')).toContain('41 Main Street');
    expect(await list.isHidden()).toBe(true);
    const map = (await page.locator('#map').boundingBox())!;
    const spot = (await pin.boundingBox())!;
    expect(Math.abs(spot.x + spot.width / 2 - (map.x + map.width / 2))).toBeLessThan(5);
  });
});
