// A crowded map view's users counted per cell by the store (GET /v1/data/map past 2,000 users in view),
// checked against the users this test tracked: on SQLite, and on two gateway nodes sharing one
// PostgreSQL schema (each node answers the other's tracks); again after users move to other cells and
// out of the view; and in Chromium, the map's status names the total the store counted.
import { startTestServer, type TestServer } from '../support/server';
import { envVar, requires } from '../support/requires';
import { DATABASE_URL, dropSchemas, freshSchemaName } from '../adapters/store-postgres-support';
import { buildDashboard, browserPage, closeInOrder, withChromium, type BrowserPage } from '../support/chromium';

/** More than the 2,000 users a view lists one by one, so the view answers counts per cell. */
const USERS = 2050;
/** The view: 0.32° each way, so each of the 32 × 32 cells is 0.01° and users sit at cell centres. */
const WEST = -76.72, SOUTH = 39.2, SIDE = 0.32, GRID = 32;
const VIEW = { bbox: [WEST, SOUTH, WEST + SIDE, SOUTH + SIDE].join(','), zoom: 11 };

type Cell = [number, number, number];

const cellCentre = (column: number, row: number): [number, number] => [WEST + (column + 0.5) * 0.01, SOUTH + (row + 0.5) * 0.01];

/** Where user i starts: one of 300 cells, so cells hold 6 or 7 users each. */
function startCell(i: number): [number, number] {
  const k = (i * 37) % 300;
  return [k % GRID, Math.floor(k / GRID)];
}

/** The cells the test expects, from the positions it tracked (undefined: out of the view). */
function expectedCells(positions: Map<number, [number, number] | undefined>): Cell[] {
  const counts = new Map<string, Cell>();
  for (const p of positions.values()) {
    if (!p) continue;
    const [lng, lat] = cellCentre(p[0], p[1]);
    const key = `${p[0]},${p[1]}`;
    const c = counts.get(key);
    if (c) c[2]++; else counts.set(key, [round5(lng), round5(lat), 1]);
  }
  return sorted([...counts.values()]);
}

const round5 = (v: number) => Math.round(v * 1e5) / 1e5;
const sorted = (cells: Cell[]) => [...cells].sort((a, b) => a[0] - b[0] || a[1] - b[1]);

async function trackAll(nodes: TestServer[], key: string, moves: Array<[number, [number, number] | undefined]>): Promise<void> {
  let next = 0;
  const worker = async (w: number) => {
    while (next < moves.length) {
      const [i, cell] = moves[next++];
      // Out of the view: a degree east of it.
      const [lng, lat] = cell ? cellCentre(cell[0], cell[1]) : [WEST + SIDE + 1, SOUTH + 0.1];
      const node = nodes[(i + w) % nodes.length];
      const res = await node.request('POST', '/v1/track', { key, body: { deviceId: `count-${i}`, userId: `count-user-${i}`, latitude: lat, longitude: lng, accuracy: 10 } });
      expect(res.status).toBe(200);
    }
  };
  await Promise.all(Array.from({ length: 8 }, (_, w) => worker(w)));
}

/** Tracks USERS users over `nodes`, checks every node's counts, moves some, checks again. */
async function countsFollowTracks(nodes: TestServer[]): Promise<Map<number, [number, number] | undefined>> {
  // The last node started holds the project's keys (a node started on a store with a project re-issues them).
  const keys = nodes[nodes.length - 1].keys;
  const key = keys.testPk;
  const positions = new Map<number, [number, number] | undefined>();
  const first: Array<[number, [number, number]]> = [];
  for (let i = 0; i < USERS; i++) first.push([i, startCell(i)]);
  await trackAll(nodes, key, first);
  for (const [i, c] of first) positions.set(i, c);

  const check = async () => {
    for (const node of nodes) {
      const res = await node.request('GET', '/v1/data/map', { key: keys.testSk, query: { ...VIEW, include: 'users' } });
      expect(res.status).toBe(200);
      const inView = [...positions.values()].filter(Boolean).length;
      expect(res.body.users.total).toBe(inView);
      expect(res.body.users.points).toEqual([]);
      expect(sorted(res.body.users.cells)).toEqual(expectedCells(positions));
    }
  };
  await check();

  // 60 users move to the empty top-right cells, 20 leave the view: counts follow on every node.
  const moves: Array<[number, [number, number] | undefined]> = [];
  for (let i = 0; i < 60; i++) moves.push([i * 5, [31 - (i % 3), 31]]);
  for (let i = 0; i < 20; i++) moves.push([1000 + i * 7, undefined]);
  await trackAll([...nodes].reverse(), key, moves);
  for (const [i, c] of moves) positions.set(i, c);
  await check();
  return positions;
}

describe('map view: users counted per cell by the store (SQLite)', () => {
  let server: TestServer;
  let positions = new Map<number, [number, number] | undefined>();
  beforeAll(async () => { server = await startTestServer(); });
  afterAll(() => server?.close());

  test('counts per cell match the users tracked, and follow them when they move', async () => {
    positions = await countsFollowTracks([server]);
  }, 180_000);

  test('a view with few users lists them one by one, not counted', async () => {
    // Around cell (0, 0)'s centre only.
    const res = await server.request('GET', '/v1/data/map', { key: server.keys.testSk, query: { bbox: `${WEST + 0.001},${SOUTH + 0.001},${WEST + 0.009},${SOUTH + 0.009}`, zoom: 16, include: 'users' } });
    expect(res.status).toBe(200);
    expect(res.body.users.cells).toEqual([]);
    const expected = [...positions.entries()].filter(([, p]) => p?.[0] === 0 && p[1] === 0).map(([i]) => i);
    expect(expected.length).toBeGreaterThan(0);
    expect(res.body.users.points.map((p: { userId: string }) => p.userId).sort()).toEqual(expected.map((i) => `count-user-${i}`).sort());
  });
});

requires('two gateway nodes on one PostgreSQL', envVar('DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/test'))('map view: users counted per cell on two nodes sharing PostgreSQL', () => {
  const schema = freshSchemaName();
  let nodeA: TestServer;
  let nodeB: TestServer;
  beforeAll(async () => {
    nodeA = await startTestServer({ store: 'postgres', databaseUrl: DATABASE_URL, databaseSchema: schema });
    nodeB = await startTestServer({ store: 'postgres', databaseUrl: DATABASE_URL, databaseSchema: schema });
  });
  afterAll(async () => {
    await nodeA?.close();
    await nodeB?.close();
    await dropSchemas([schema]);
  });

  test('each node counts the users tracked through both, before and after they move', async () => {
    await countsFollowTracks([nodeA, nodeB]);
  }, 240_000);
});

withChromium('map counts in a browser')('map view in Chromium: the counted users', () => {
  let server: TestServer;
  let chrome: BrowserPage;
  beforeAll(async () => {
    buildDashboard();
    server = await startTestServer();
    const moves: Array<[number, [number, number]]> = [];
    for (let i = 0; i < USERS; i++) moves.push([i, startCell(i)]);
    await trackAll([server], server.keys.testPk, moves);
    // A polygon around the users' cells: the map opens on it, so its view holds every user.
    const ring = [[WEST, SOUTH], [WEST + SIDE, SOUTH], [WEST + SIDE, SOUTH + SIDE], [WEST, SOUTH + SIDE], [WEST, SOUTH]];
    const put = await server.request('PUT', '/v1/geofences/area/all', { key: server.keys.testSk, body: { description: 'Area', type: 'polygon', coordinates: [ring] } });
    expect(put.status).toBe(200);
    chrome = await browserPage();
  }, 180_000);
  afterAll(() => closeInOrder(chrome, server));

  test('the opening view, crowded, says how many users the store counted', async () => {
    const page = await chrome.newPage();
    await page.addInitScript(`sessionStorage.setItem('waymark.dashboard.keys', JSON.stringify({ test: ${JSON.stringify(server.keys.testSk)}, current: 'test' }))`);
    await page.goto(`${server.url}/dashboard/#/map`);
    await page.locator('#map[data-ready]').waitFor({ timeout: 60_000 });
    await expect(page.locator('#map-status').textContent()).resolves.toContain(`${USERS.toLocaleString('en-US')} users in view`);
    // Counted, not listed: the users are drawn as numbered cells whose counts add up to the total.
    // The list of what the canvas shows, opened (its buttons are made while it is open).
    await page.locator('.user-list summary').click();
    const titles = await page.locator('#map [title$="users"], #map [title$="user"]').evaluateAll((els) => els.map((e) => e.getAttribute('title')));
    expect(titles.reduce((sum, t) => sum + Number(t!.split(' ')[0].replace(/,/g, '')), 0)).toBe(USERS);
    await page.close();
  }, 90_000);
});
