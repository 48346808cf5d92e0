// The Analytics view in headless Chromium against a real gateway holding 12,013 events over a week (more
// than the 10,000 the page used to read itself): it shows the server's counts for the chosen period,
// the last 7 days and a typed from–to. Screenshot: $WAYMARK_SCREENSHOTS/analytics.png.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server';
import { dayOf, seedEvents, writeAll } from '../support/analytics-events';
import { buildDashboard, browserPage, closeInOrder, withChromium, type BrowserPage } from '../support/chromium';

const describeBrowser = withChromium('the analytics view in a browser');

describeBrowser('analytics view', () => {
  let server: TestServer;
  let chrome: BrowserPage;
  let page: Page;

  beforeAll(async () => {
    buildDashboard();
    server = await startTestServer();
    await writeAll(server.running.gateway.adapters.store, { projectId: server.keys.id, live: false }, seedEvents());
    chrome = await browserPage();
    page = chrome.page;
    await page.addInitScript(`sessionStorage.setItem('waymark.dashboard.keys', JSON.stringify({ test: ${JSON.stringify(server.keys.testSk)}, current: 'test' }))`);
  }, 120_000);
  afterAll(() => closeInOrder(chrome, server));

  const summary = () => page.locator('#analytics-summary');
  const section = (heading: string) => page.locator('section', { has: page.getByRole('heading', { name: heading }) });

  test('the last 7 days: every event counted, per day, top geofences, visit lengths and trips', async () => {
    await page.goto(`${server.url}/dashboard/#/analytics`);
    await summary().waitFor();
    expect(await summary().textContent()).toBe(`12,013 events and 3 trips in the period (${dayOf(6)} – ${dayOf(0)}, UTC).`);
    const perDay = section('Events per day');
    expect(await perDay.locator('thead th').allTextContents()).toEqual(['Day', 'Arrived at destination', 'Entered geofence', 'Exited geofence', 'Started trip']);
    expect(await perDay.locator('tbody tr').allTextContents()).toEqual([`${dayOf(0)}0700`, `${dayOf(3)}3003`, `${dayOf(4)}05,00000`, `${dayOf(5)}06,0001,0000`]);
    expect(await section('Top geofences by entries').locator('tbody tr').allTextContents()).toEqual(['North store7,000', 'Harbor store4,007']);
    expect(await section('Visit length (exits)').locator('tbody td:nth-child(2)').allTextContents()).toEqual(['100', '200', '500', '0', '200']);
    const trips = await section('Trips').locator('tbody tr').allTextContents();
    expect(trips).toEqual(['Trips started3', 'Arrived3', 'Duration to arrival, median20.0 min', 'Duration to arrival, 90th percentile30.0 min', 'Arrived late1', 'Delay of late arrivals, median5.0 min']);
    const dir = process.env.WAYMARK_SCREENSHOTS;
    if (dir) await page.screenshot({ path: path.join(dir, 'analytics.png'), fullPage: false });
  });

  test('a typed from–to period', async () => {
    await page.goto(`${server.url}/dashboard/#/analytics`);
    await summary().waitFor();
    await page.getByLabel('Period', { exact: true }).selectOption('custom');
    await page.getByLabel('From').fill(dayOf(5));
    await page.getByLabel('To (included)').fill(dayOf(4));
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByText(`12,000 events and 0 trips in the period (${dayOf(5)} – ${dayOf(4)}, UTC).`).waitFor();
  });

  test('a bad period shows the server\'s message', async () => {
    await page.goto(`${server.url}/dashboard/#/analytics`);
    await summary().waitFor();
    await page.getByLabel('Period', { exact: true }).selectOption('custom');
    await page.getByLabel('From').fill(dayOf(1));
    await page.getByLabel('To (included)').fill(dayOf(3));
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByRole('alert').getByText('from must be on or before to').waitFor();
  });
});
