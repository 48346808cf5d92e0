// A busy environment in Chromium: a trip's page finds its timeline, and the events feed a user's events,
// from the user's own events index (GET /v1/users/:id/events), not by searching the environment's latest
// 1,000 trip events (a trip followed by 1,000 updates of other trips had none) or the latest 100 events.
import type { Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server';
import { buildDashboard, browserPage, closeInOrder, withChromium, type BrowserPage } from '../support/chromium';

const describeBrowser = withChromium('a busy environment in a browser');

const STORE = { lat: 39.2979, lng: -76.5905 };

describeBrowser('a busy environment', () => {
  let server: TestServer;
  let chrome: BrowserPage;
  let page: Page;
  let tripId: string;

  const track = (userId: string, lat: number, lng: number) =>
    server.request('POST', '/v1/track', { key: server.keys.testPk, body: { deviceId: `${userId}-device`, userId, latitude: lat, longitude: lng, accuracy: 8 } });
  const startTrip = (externalId: string, userId: string) => server.request('POST', '/v1/trips', {
    key: server.keys.testPk, body: { externalId, userId, destinationGeofenceTag: 'store', destinationGeofenceExternalId: 'north', mode: 'car', status: 'started' },
  });

  beforeAll(async () => {
    buildDashboard();
    server = await startTestServer();
    const sk = server.keys.testSk;
    await server.request('PUT', '/v1/geofences/store/north', { key: sk, body: { description: 'North store', type: 'circle', coordinates: [STORE.lng, STORE.lat + 0.02], radius: 150 } });
    // Carol's trip: started, two updates on the way, arrived.
    expect((await track('carol', STORE.lat - 0.02, STORE.lng)).status).toBe(200);
    const trip = await startTrip('order-carol', 'carol');
    expect(trip.status).toBe(200);
    tripId = trip.body.trip._id;
    for (const lat of [STORE.lat - 0.01, STORE.lat, STORE.lat + 0.02]) expect((await track('carol', lat, STORE.lng)).status).toBe(200);
    // Then 1,050 updates of another driver's trip, each a user.updated_trip event: carol's are no longer
    // among the environment's latest 1,000 trip events.
    expect((await track('dave', STORE.lat - 0.3, STORE.lng)).status).toBe(200);
    expect((await startTrip('order-dave', 'dave')).status).toBe(200);
    for (let i = 0; i < 1050; i += 50) {
      await Promise.all(Array.from({ length: 50 }, (_, k) => track(`dave`, STORE.lat - 0.3 + (i + k) * 1e-5, STORE.lng)));
    }
    const latest = await server.request('GET', '/v1/events', { key: sk, query: { types: 'user.started_trip,user.updated_trip,user.approaching_trip_destination,user.arrived_at_trip_destination', limit: '1000' } });
    expect(latest.body.events.some((e: { trip?: { _id: string } }) => e.trip?._id === tripId)).toBe(false);
    chrome = await browserPage();
    page = chrome.page;
    page.setDefaultTimeout(15_000);
    await page.addInitScript(`sessionStorage.setItem('waymark.dashboard.keys', JSON.stringify({ test: ${JSON.stringify(sk)}, current: 'test' }))`);
  }, 180_000);

  afterAll(() => closeInOrder(chrome, server));

  test('the page lists the trip\'s own events in order, from start to arrival', async () => {
    await page.goto(`${server.url}/dashboard/#/trips/${tripId}`);
    await page.getByRole('heading', { name: 'Trip order-carol' }).waitFor();
    const rows = page.locator('section[aria-labelledby="timeline-h"] tbody tr');
    await rows.first().waitFor();
    const what = (await rows.allTextContents()).map((r) => r.replace(/\s+/g, ' '));
    expect(what[0]).toContain('Started trip');
    expect(what.some((r) => r.includes('Arrived at destination'))).toBe(true);
    expect(what.length).toBeGreaterThanOrEqual(3);
    expect(await page.locator('#timeline-cut').count()).toBe(0);
  });

  test('the events feed filtered by a user shows their events, older than the environment\'s latest 100', async () => {
    await page.goto(`${server.url}/dashboard/#/events?user=carol&types=user.started_trip,user.arrived_at_trip_destination`);
    const feed = page.locator('#event-feed li');
    await feed.first().waitFor();
    const items = (await feed.allTextContents()).join('\n');
    expect(items).toContain('carol');
    expect(items).not.toContain('dave');
    expect(await page.locator('#event-feed li[data-type="user.updated_trip"]').count()).toBe(0);
    expect(await page.locator('#event-feed li[data-type="user.started_trip"]').count()).toBe(1);
    expect(await page.locator('#event-feed li[data-type="user.arrived_at_trip_destination"]').count()).toBe(1);
    // An unknown user is said so.
    await page.goto(`${server.url}/dashboard/#/events?user=nobody`);
    await page.getByRole('alert').filter({ hasText: 'nobody' }).waitFor();
  });
});
