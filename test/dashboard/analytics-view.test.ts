// The Analytics view in headless Chromium against a real gateway holding 12,013 events over a week (more
// than the 10,000 the page used to read itself): it shows the server's counts for the chosen period,
// the last 7 days and a typed from–to; in a browser set to New York, its days are New York's unless UTC
// is chosen. Screenshot: $WAYMARK_SCREENSHOTS/analytics.png.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server';
import { dayOf, midnightEvents, seedEvents, writeAll } from '../support/analytics-events';
import { buildDashboard, browserPage, closeInOrder, withChromium, PAGE_VIEWPORT, type BrowserPage } from '../support/chromium';

const describeBrowser = withChromium('the analytics view in a browser');

describeBrowser('analytics view', () => {
  let server: TestServer;
  let chrome: BrowserPage;
  let page: Page;

  beforeAll(async () => {
    buildDashboard();
    server = await startTestServer();
    // The fixed days either side of New York's midnights lie weeks before the last 7 days.
    await writeAll(server.running.gateway.adapters.store, { projectId: server.keys.id, live: false }, [...seedEvents(), ...midnightEvents()]);
    chrome = await browserPage();
    page = await pageIn('UTC');
  }, 120_000);
  afterAll(() => closeInOrder(chrome, server));

  /** A signed-in page whose browser clock is in `timezoneId` (the view's default zone). */
  async function pageIn(timezoneId: string): Promise<Page> {
    const p = await chrome.browser.newPage({ viewport: PAGE_VIEWPORT, timezoneId });
    await p.addInitScript(`sessionStorage.setItem('waymark.dashboard.keys', JSON.stringify({ test: ${JSON.stringify(server.keys.testSk)}, current: 'test' }))`);
    return p;
  }

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

  test('the rolling last 24 hours: today\'s 7 events, in the slice of today since midnight', async () => {
    await page.goto(`${server.url}/dashboard/#/analytics`);
    await summary().waitFor();
    await page.getByLabel('Period', { exact: true }).selectOption('24h');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByText('7 events and 0 trips in the last 24 hours (UTC).').waitFor();
    const rows = await section('Events per day').locator('tbody tr').allTextContents();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatch(new RegExp(`^${dayOf(0)}, 00:00–\\d\\d:\\d\\d7$`));
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

  test('in a browser set to New York: its zone chosen by default, New York\'s days counted; UTC\'s when chosen', async () => {
    const ny = await pageIn('America/New_York');
    await ny.goto(`${server.url}/dashboard/#/analytics`);
    await ny.locator('#analytics-summary').waitFor();
    const zone = ny.getByLabel('Time zone');
    const period = ny.getByLabel('Period', { exact: true });
    expect(await zone.inputValue()).toBe('America/New_York');
    expect(await period.locator('option[value="1"]').textContent()).toBe('Today (America/New_York)');
    await period.selectOption('custom');
    await ny.getByLabel('From').fill('2026-10-31');
    await ny.getByLabel('To (included)').fill('2026-11-02');
    await ny.getByRole('button', { name: 'Show' }).click();
    await ny.getByText('63 events and 0 trips in the period (2026-10-31 – 2026-11-02, America/New_York).').waitFor();
    const rows = () => ny.locator('section', { has: ny.getByRole('heading', { name: 'Events per day' }) }).locator('tbody tr').allTextContents();
    // Just before and after each local midnight, and the 25 hours of the day clocks went back.
    expect(await rows()).toEqual(['2026-11-0232', '2026-11-01 (25 h)30', '2026-10-311']);

    await zone.selectOption('UTC');
    await ny.getByText('63 events and 0 trips in the period (2026-10-31 – 2026-11-02, UTC).').waitFor();
    expect(await rows()).toEqual(['2026-11-0256', '2026-11-017']);
    expect(await period.locator('option[value="1"]').textContent()).toBe('Today (UTC)');
    await ny.close();
  });
});
