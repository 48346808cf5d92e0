// Our project settings endpoint (GET/PATCH /v1/project/settings): the behaviour switches the spec keeps
// "in the dashboard". One set per project, shared by its test and live keys.
import { DEFAULT_PROJECT_SETTINGS } from '../../core/types';
import { startTestServer, type ProjectKeys, type TestServer } from '../support/server';
import { call, expectCase, type Want } from './foundation-expect';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

const DEFAULTS = {
  stopDetection: false, bufferEntries: false, bufferExits: false, dwellEvents: false, operatingHoursSuppression: false,
  tripApproachingThreshold: 5, tripExpirationHours: 24, places: false, regions: false, fraud: false, fraudBlocking: false,
  locationHistoryDays: 30,
};

async function settingsOf(key: string): Promise<Record<string, unknown>> {
  const reply = await call(s, 'GET', '/v1/project/settings', { key });
  expect(reply.status).toBe(200);
  return reply.body.settings;
}

test('a new project has the documented defaults', async () => {
  const k = await s.newProject('ps-defaults');
  expect(DEFAULTS).toEqual(DEFAULT_PROJECT_SETTINGS);
  const reply = await call(s, 'GET', '/v1/project/settings', { key: k.testSk });
  expect(reply.body).toEqual({ meta: { code: 200 }, settings: DEFAULTS });
});

describe('PATCH', () => {
  test.each([{ encoding: 'JSON', form: false }, { encoding: 'form', form: true }])('$encoding body: changes the named settings, keeps the rest', async ({ form }) => {
    const k = await s.newProject(`ps-patch-${form}`);
    const first = await call(s, 'PATCH', '/v1/project/settings', { key: k.testSk, form, body: { stopDetection: true, tripApproachingThreshold: 10 } });
    expect(first.body).toEqual({ meta: { code: 200 }, settings: { ...DEFAULTS, stopDetection: true, tripApproachingThreshold: 10 } });
    await call(s, 'PATCH', '/v1/project/settings', { key: k.testSk, form, body: { tripExpirationHours: 0.5, dwellEvents: 'yes' } });
    expect(await settingsOf(k.testSk)).toEqual({ ...DEFAULTS, stopDetection: true, tripApproachingThreshold: 10, tripExpirationHours: 0.5, dwellEvents: true });
  });

  const accepted: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
    ['every boolean on', Object.fromEntries(['stopDetection', 'bufferEntries', 'bufferExits', 'dwellEvents', 'operatingHoursSuppression', 'places', 'regions', 'fraud', 'fraudBlocking'].map((n) => [n, true])), {}],
    ['boolean as text "false"', { stopDetection: 'false' }, { stopDetection: false }],
    ['threshold 0', { tripApproachingThreshold: 0 }, {}],
    ['threshold 1440', { tripApproachingThreshold: '1440' }, { tripApproachingThreshold: 1440 }],
    ['expiration 8760 hours', { tripExpirationHours: 8760 }, {}],
    ['null leaves a setting alone', { fraud: null }, { fraud: false }],
  ];
  test.each(accepted)('%s', async (_name, body, override) => {
    const k = await s.newProject('ps-accepted');
    const reply = await call(s, 'PATCH', '/v1/project/settings', { key: k.testSk, body });
    expect(reply.status).toBe(200);
    expect(reply.body.settings).toEqual({ ...DEFAULTS, ...body, ...override });
  });

  test('one set per project: a PATCH with the test key shows with the live key', async () => {
    const k = await s.newProject('ps-shared');
    await call(s, 'PATCH', '/v1/project/settings', { key: k.testSk, body: { regions: true } });
    expect(await settingsOf(k.liveSk)).toEqual({ ...DEFAULTS, regions: true });
    await call(s, 'PATCH', '/v1/project/settings', { key: k.liveSk, body: { regions: false } });
    expect(await settingsOf(k.testSk)).toEqual(DEFAULTS);
  });

  test('PATCHes of different settings at once all land', async () => {
    const k = await s.newProject('ps-race');
    const names = ['stopDetection', 'bufferEntries', 'bufferExits', 'dwellEvents', 'places', 'regions', 'fraud'];
    await Promise.all(names.map((name) => call(s, 'PATCH', '/v1/project/settings', { key: k.testSk, body: { [name]: true } })));
    expect(await settingsOf(k.testSk)).toEqual({ ...DEFAULTS, ...Object.fromEntries(names.map((n) => [n, true])) });
  });

  test('projects are separate', async () => {
    const a = await s.newProject('ps-a');
    const b = await s.newProject('ps-b');
    await call(s, 'PATCH', '/v1/project/settings', { key: a.testSk, body: { fraud: true } });
    expect(await settingsOf(b.testSk)).toEqual(DEFAULTS);
  });

  test('changes made through the project service show at once', async () => {
    const k = await s.newProject('ps-service');
    expect(await settingsOf(k.testSk)).toEqual(DEFAULTS);
    await s.running.gateway.shared.projects.updateSettings(k.id, { places: true });
    expect(await settingsOf(k.testSk)).toEqual({ ...DEFAULTS, places: true });
  });
});

describe('PATCH: refused bodies change nothing', () => {
  let k: ProjectKeys;
  beforeAll(async () => {
    k = await s.newProject('ps-refused');
    await call(s, 'PATCH', '/v1/project/settings', { key: k.testSk, body: { bufferExits: true } });
  });
  const unknown = (name: string): string =>
    `${name} is not a project setting; known settings: stopDetection, bufferEntries, bufferExits, dwellEvents, operatingHoursSuppression, tripApproachingThreshold, tripExpirationHours, places, regions, fraud, fraudBlocking, locationHistoryDays`;
  const cases: Array<{ name: string; body: string; want: Want }> = [
    { name: 'unknown name', body: '{"stopDetecton": true}', want: { status: 400, param: 'stopDetecton', message: unknown('stopDetecton') } },
    { name: 'name of an Object method (constructor)', body: '{"constructor": 1}', want: { status: 400, param: 'constructor', message: unknown('constructor') } },
    { name: 'name of an Object method (valueOf)', body: '{"valueOf": 1}', want: { status: 400, param: 'valueOf', message: unknown('valueOf') } },
    { name: 'name of an Object method (hasOwnProperty)', body: '{"hasOwnProperty": true}', want: { status: 400, param: 'hasOwnProperty' } },
    { name: '__proto__', body: '{"__proto__": {"fraud": true}}', want: { status: 400, param: '__proto__' } },
    { name: 'boolean as a word', body: '{"stopDetection": "sometimes"}', want: { status: 400, param: 'stopDetection', message: 'stopDetection must be a boolean (true or false)' } },
    { name: 'threshold below 0', body: '{"tripApproachingThreshold": -1}', want: { status: 400, param: 'tripApproachingThreshold', message: 'tripApproachingThreshold must be between 0 and 1440' } },
    { name: 'threshold above a day', body: '{"tripApproachingThreshold": 1441}', want: { status: 400, param: 'tripApproachingThreshold', message: 'tripApproachingThreshold must be between 0 and 1440' } },
    { name: 'threshold not a number', body: '{"tripApproachingThreshold": "soon"}', want: { status: 400, param: 'tripApproachingThreshold', message: 'tripApproachingThreshold must be a number' } },
    { name: 'expiration 0', body: '{"tripExpirationHours": 0}', want: { status: 400, param: 'tripExpirationHours', message: 'tripExpirationHours must be greater than 0' } },
    { name: 'expiration over a year', body: '{"tripExpirationHours": 8761}', want: { status: 400, param: 'tripExpirationHours', message: 'tripExpirationHours must be at most 8760' } },
    { name: 'history days below 0', body: '{"locationHistoryDays": -1}', want: { status: 400, param: 'locationHistoryDays', message: 'locationHistoryDays must be between 0 and 3650' } },
    { name: 'history days over ten years', body: '{"locationHistoryDays": 3651}', want: { status: 400, param: 'locationHistoryDays', message: 'locationHistoryDays must be between 0 and 3650' } },
    { name: 'a good setting beside a bad one', body: '{"fraud": true, "tripExpirationHours": -5}', want: { status: 400, param: 'tripExpirationHours' } },
  ];
  test.each(cases)('$name → $want.status $want.param', async ({ body, want }) => {
    await expectCase(s, { method: 'PATCH', path: '/v1/project/settings', opts: { key: k.testSk, raw: { contentType: 'application/json', text: body } }, want });
    expect(await settingsOf(k.testSk)).toEqual({ ...DEFAULTS, bufferExits: true });
  });
});
