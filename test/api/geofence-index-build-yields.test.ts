// A restarted gateway's geofence index build (GeofenceService.preload, issue 33) yields to the event loop
// as it reads: a request that needs no index is answered while the build is still reading, and requests
// that need it (the dashboard's overview, a track update, the map) wait for it and answer as if it had
// always been there; a geofence written or deleted during the build is in the index after it, or gone.
// Real gateway on an ephemeral port, real SQLite file. Observed, not timed: the requests are sent when
// the build's first log line comes, and the service says (reading()) whether the build is still reading
// when the first answer arrives; read in one piece, the whole read ran before any answer could.
import { startServer, type RunningServer } from '../../server/app';
import { configFromEnv } from '../../server/config';
import { parseGeofenceInput } from '../../core/input/geofence-input';
import type { Logger } from '../../ports/logger';
import { startTestServer, type ProjectKeys } from '../support/server';
import { until } from '../support/until';

/** 30 of the SQLite scan's batches of 1,000: a build of many turns of the event loop. */
const GEOFENCES = 30_000;
/** A circle every request below is about: a track update there enters it. */
const P = { lng: -76.5905, lat: 39.2979 };

jest.setTimeout(180_000);

interface Answer { status: number; body: any }

describe('the geofence index build at start yields to other requests', () => {
  let dataDir: string;
  let keys: ProjectKeys;
  let running: RunningServer | undefined;

  beforeAll(async () => {
    const first = await startTestServer();
    ({ dataDir, keys } = first);
    const service = first.running.gateway.shared.geofences;
    const scope = { projectId: keys.id, live: false };
    const now = new Date();
    const circle = (id: string, lng: number, lat: number) =>
      service.build(scope, parseGeofenceInput({ description: id, type: 'circle', coordinates: [lng, lat], radius: 50 }, { mode: 'api' }), 'store', id, undefined, now);
    // Written through the service (the API's own path, without HTTP) so that 30,000 take seconds.
    for (let i = 0; i < GEOFENCES - 2; i += 2000) {
      const batch = [];
      for (let j = i; j < Math.min(GEOFENCES - 2, i + 2000); j++) batch.push(circle(`s${j}`, -77.2 + (j % 200) * 0.004, 37.0 + Math.floor(j / 200) * 0.004));
      await service.save(scope, batch);
    }
    await service.save(scope, [circle('p', P.lng, P.lat), circle('gone', P.lng + 0.003, P.lat)]);
    await first.close();
  }, 180_000);

  afterAll(async () => { await running?.close(); });

  test('answered while it reads; the overview, a track and the map wait for it; writes meanwhile kept', async () => {
    const scope = { projectId: keys.id, live: false };
    const logged: string[] = [];
    const sent: Record<string, Promise<Answer>> = {};
    let firstLine: Record<string, unknown> | undefined;
    /** What the service said of the build when the first answer came. */
    const atFirstAnswer: { reading?: number } = {};
    const call = (method: string, path: string, key: string, body?: unknown): Promise<Answer> =>
      fetch(running!.url + path, { method, headers: { authorization: key, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined })
        .then(async (r) => ({ status: r.status, body: await r.json() }));
    const startRequests = () => {
      // The settings need no geofence index: answered between the build's batches.
      sent.settings = call('GET', '/v1/project/settings', keys.testSk).then((a) => {
        atFirstAnswer.reading = running!.gateway.shared.geofences.reading(scope);
        // Written and deleted while the build still reads (the scan has passed or not yet reached them).
        sent.late = call('PUT', '/v1/geofences/store/late', keys.testSk, { description: 'late', type: 'circle', coordinates: [P.lng - 0.003, P.lat], radius: 50 });
        sent.gone = call('DELETE', '/v1/geofences/store/gone', keys.testSk);
        return a;
      });
      sent.overview = call('GET', '/v1/data/overview', keys.testSk);
      sent.track = call('POST', '/v1/track', keys.testPk, { deviceId: 'd1', userId: 'u1', latitude: P.lat, longitude: P.lng, accuracy: 10 });
    };
    const logger: Logger = {
      info: (message, fields) => {
        logged.push(message);
        if (message === 'geofence indexes building' && logged.filter((m) => m === message).length === 1) {
          firstLine = fields;
          startRequests();
        }
      },
      warn: (message) => logged.push(message),
      error: (message) => logged.push(message),
    };
    const base = configFromEnv({});
    running = await startServer({
      ...base, port: 0, host: '127.0.0.1', rateLimitScale: 0, logRequests: false, jobIntervalMs: 0, dataDir,
      extracts: { ...base.extracts, loadWaitMs: 600_000 },
    }, logger);
    await until('the build to start', async () => sent.settings !== undefined, 60_000, 20);

    expect(firstLine).toEqual({ environments: 2 });
    expect((await sent.settings).status).toBe(200);
    // Answered while the build had read some of the environment's geofences, not all.
    expect(typeof atFirstAnswer.reading).toBe('number');
    expect(atFirstAnswer.reading!).toBeGreaterThan(0);
    expect(atFirstAnswer.reading!).toBeLessThan(GEOFENCES);

    // Those needing the index waited for the whole of it: never a partial answer.
    const overview = await sent.overview;
    expect(overview.status).toBe(200);
    expect(overview.body.geofences.count).toBe(GEOFENCES);
    const track = await sent.track;
    expect(track.status).toBe(200);
    expect(track.body.events.map((e: { type: string; geofence?: { externalId: string } }) => [e.type, e.geofence?.externalId]))
      .toContainEqual(['user.entered_geofence', 'p']);

    expect((await sent.late).status).toBe(200);
    expect((await sent.gone).status).toBe(200);
    await until('the build logged', async () => logged.includes('geofence indexes built'), 60_000, 20);
    const map = await call('GET', `/v1/data/map?bbox=${P.lng - 0.01},${P.lat - 0.005},${P.lng + 0.01},${P.lat + 0.005}&zoom=16&include=geofences`, keys.testSk);
    expect(map.status).toBe(200);
    expect(map.body.geofences.shapes.map((s: { externalId: string }) => s.externalId).sort()).toEqual(['late', 'p']);
    expect((await call('GET', '/v1/data/overview', keys.testSk)).body.geofences.count).toBe(GEOFENCES);
  });
});
