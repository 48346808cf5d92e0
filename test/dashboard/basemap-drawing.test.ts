// The map's base map from an imported extract, in Chromium against a real gateway: the east Baltimore
// extract imported (base map and routing stages), geofences around Patterson Park so the map opens there
// at zoom 15; the map's one vector canvas then holds water (the park's boat lake), park and building
// pixels in their colours, asked for only after the first draw, and the extract's coverage box shows when
// zoomed out. Screenshots: map.png and map-coverage.png in $WAYMARK_SCREENSHOTS (docs/dashboard/).
import path from 'node:path';
import type { Page } from 'playwright-core';
import { runImport } from '../../importers/osm/import-pipeline';
import { BasemapStage } from '../../importers/osm/stages/basemap/basemap-stage';
import { RoutingStage } from '../../importers/osm/stages/routing/routing-stage';
import { OSM } from '../routing/support';
import { startTestServer, tempDataDir, type TestServer } from '../support/server';
import { buildDashboard, browserPage, closeInOrder, withChromium, type BrowserPage } from '../support/chromium';
import { files } from '../support/requires';
import { until } from '../support/until';

const FILE = path.join(OSM, 'us-md-baltimore-valhalla.osm.pbf');
const describeBrowser = withChromium('the base map in a browser', files(FILE));

/** Patterson Park: its boat lake lies at its south-west (-76.5809, 39.2882). */
const PARK = { lng: -76.5795, lat: 39.2895 };
/** The colours basemap-layer.ts fills with (AREA_COLOURS), as RGB. */
const COLOURS = { park: [0xcd, 0xeb, 0xb6], water: [0x9f, 0xcf, 0xe6], building: [0xd6, 0xcf, 0xc7] } as const;
const COVERAGE = [0x5b, 0x7d, 0xa0];

async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.WAYMARK_SCREENSHOTS;
  if (dir) await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: false });
}

/** Pixels of the map's vector canvas (the one Leaflet draws every base layer on) near each colour. */
async function colourCounts(page: Page, colours: Record<string, readonly number[]>, tolerance: number): Promise<Record<string, number>> {
  return page.evaluate(`(() => {
    const canvas = document.querySelector('#map .leaflet-overlay-pane canvas');
    const ctx = canvas.getContext('2d');
    const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
    const colours = ${JSON.stringify(colours)};
    const counts = Object.fromEntries(Object.keys(colours).map((k) => [k, 0]));
    for (let i = 0; i < data.length; i += 4) {
      for (const [k, [r, g, b]] of Object.entries(colours)) {
        if (Math.abs(data[i] - r) <= ${tolerance} && Math.abs(data[i + 1] - g) <= ${tolerance} && Math.abs(data[i + 2] - b) <= ${tolerance} && data[i + 3] > 200) counts[k]++;
      }
    }
    return counts;
  })()`);
}

describeBrowser('the base map', () => {
  let server: TestServer;
  let chrome: BrowserPage;
  let page: Page;

  beforeAll(async () => {
    buildDashboard();
    const dataDir = tempDataDir();
    await runImport({ file: FILE, name: 'baltimore', dataDir, stages: [new BasemapStage(), new RoutingStage()] });
    server = await startTestServer({ dataDir });
    const sk = server.keys.testSk;
    const put = (id: string, lng: number, lat: number) =>
      server.request('PUT', `/v1/geofences/park/${id}`, { key: sk, body: { description: `Park ${id}`, type: 'circle', coordinates: [lng, lat], radius: 60 } });
    expect((await put('west', PARK.lng - 0.004, PARK.lat - 0.001)).status).toBe(200);
    expect((await put('east', PARK.lng + 0.003, PARK.lat + 0.001)).status).toBe(200);
    await server.request('POST', '/v1/track', { key: server.keys.testPk, body: { deviceId: 'walker-device', userId: 'walker', latitude: PARK.lat, longitude: PARK.lng, accuracy: 8 } });
    chrome = await browserPage();
    page = chrome.page;
    await page.addInitScript(`sessionStorage.setItem('waymark.dashboard.keys', JSON.stringify({ test: ${JSON.stringify(sk)}, current: 'test' }))`);
  }, 400_000);

  afterAll(() => closeInOrder(chrome, server));

  test('draws the extract\'s water, park and buildings around Patterson Park, asked only after the first draw', async () => {
    await page.goto(`${server.url}/dashboard/#/map`);
    await page.locator('#map[data-ready]').waitFor();
    await until('the base map drawn', async () => Number(await page.evaluate('performance.getEntriesByName("waymark:basemap-drawn").length')) > 0, 20_000, 100);
    const order = await page.evaluate(`(() => {
      const drawn = performance.getEntriesByName('waymark:map-drawn')[0];
      const asked = performance.getEntriesByType('resource').find((r) => r.name.includes('/v1/data/basemap?'));
      return { drawn: drawn ? drawn.startTime : null, asked: asked ? asked.startTime : null, zoom: null };
    })()`) as { drawn: number | null; asked: number | null };
    expect(order.drawn).not.toBeNull();
    expect(order.asked).not.toBeNull();
    expect(order.asked!).toBeGreaterThan(order.drawn!);
    await page.waitForTimeout(300);
    const counts = await colourCounts(page, COLOURS, 0);
    // At zoom 15 the park is a few hundred pixels across, its lake some tens, a street block of rowhouses many.
    expect(counts.park).toBeGreaterThan(20_000);
    expect(counts.water).toBeGreaterThan(300);
    expect(counts.building).toBeGreaterThan(5_000);
    await shot(page, 'map');
  });

  test('zoomed out to 12: no buildings, the park still drawn, and the extract\'s coverage box', async () => {
    for (let i = 0; i < 3; i++) {
      await page.getByRole('button', { name: 'Zoom out' }).click();
      await page.waitForTimeout(400);
    }
    await page.waitForTimeout(1500);
    // Exact colours for the areas; the coverage line, 2 px wide and anti-aliased, within 20 of its own.
    const counts = { ...(await colourCounts(page, COLOURS, 0)), ...(await colourCounts(page, { coverage: COVERAGE }, 20)) };
    await shot(page, 'map-coverage');
    expect(counts.building).toBe(0);
    // Patterson Park alone is ~35 by 25 pixels at zoom 12; the extract's box ~520 by 540.
    expect(counts.park).toBeGreaterThan(300);
    expect(counts.coverage).toBeGreaterThan(600);
  });

  test('a building across a cell line is outlined without a seam where it was cut', async () => {
    // The building south of Canton that the 0.01° meridian at -76.54 cuts in two (basemap-stage.test.ts):
    // the map opened on a geofence 0.0005° west of the cut, then zoomed to 17, where walls are stroked.
    for (const id of ['west', 'east']) expect((await server.request('DELETE', `/v1/geofences/park/${id}`, { key: server.keys.testSk })).status).toBe(200);
    const at = { lng: -76.5405, lat: 39.2585 };
    expect((await server.request('PUT', '/v1/geofences/seam/here', { key: server.keys.testSk, body: { description: 'Seam', type: 'circle', coordinates: [at.lng, at.lat], radius: 10 } })).status).toBe(200);
    await page.goto(`${server.url}/dashboard/#/geofences`);
    await page.goto(`${server.url}/dashboard/#/map`);
    await page.locator('#map[data-ready]').waitFor();
    for (let i = 0; i < 2; i++) {
      await page.getByRole('button', { name: 'Zoom in' }).click();
      await page.waitForTimeout(400);
    }
    await page.waitForTimeout(1500);
    const cutOffset = ((-76.54 - at.lng) / 360) * 256 * 2 ** 17;
    // Around the cut's column (the map's centre may sit half a pixel off at zoom 15, two at 17), over 81 rows
    // of the building just south of the extract's coverage line: every pixel the building's own fill, neither
    // a wall's colour nor the graticule's (its 0.01° lines at this zoom are the cut lines).
    const seam = await page.evaluate(`(() => {
      const canvas = document.querySelector('#map .leaflet-overlay-pane canvas');
      const map = document.querySelector('#map').getBoundingClientRect();
      const box = canvas.getBoundingClientRect();
      const k = canvas.width / box.width;
      const cx = Math.round((map.left + map.width / 2 + ${cutOffset} - box.left) * k);
      const cy = Math.round((map.top + map.height / 2 - box.top) * k);
      const data = canvas.getContext('2d').getImageData(cx - 3, cy + 8, 7, 81).data;
      let building = 0, other = 0;
      for (let i = 0; i < data.length; i += 4) {
        const fill = Math.abs(data[i] - 0xd6) <= 2 && Math.abs(data[i + 1] - 0xcf) <= 2 && Math.abs(data[i + 2] - 0xc7) <= 2;
        if (fill) building++; else other++;
      }
      return { building, other };
    })()`) as { building: number; other: number };
    await shot(page, 'map-buildings');
    expect(seam.building).toBe(7 * 81);
    expect(seam.other).toBe(0);
  });
});
