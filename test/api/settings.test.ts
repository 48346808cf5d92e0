// Places settings (spec "Places settings"): GET/PATCH /v1/settings, one object per project environment,
// three dictionaries whose inner shape Waymark defines and checks (docs/places.md).
import { startTestServer, type ProjectKeys, type TestServer } from '../support/server';
import { call, expectCase, type Want } from './foundation-expect';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

const EMPTY = { chainMetadata: {}, chainMappings: {}, placeFilters: {} };

async function settingsOf(key: string): Promise<Record<string, unknown>> {
  const reply = await call(s, 'GET', '/v1/settings', { key });
  expect(reply.status).toBe(200);
  expect(Object.keys(reply.body)).toEqual(['meta', 'chainMetadata', 'chainMappings', 'placeFilters', 'settings']);
  const { meta: _meta, settings, ...topLevel } = reply.body;
  expect(topLevel).toEqual(settings);
  return settings;
}

test('a new project has the three dictionaries, empty', async () => {
  const k = await s.newProject('settings-new');
  const reply = await call(s, 'GET', '/v1/settings', { key: k.testSk });
  expect(reply.body).toEqual({ meta: { code: 200 }, ...EMPTY, settings: EMPTY });
});

describe('PATCH', () => {
  const encodings = [{ encoding: 'JSON', form: false }, { encoding: 'form', form: true }];

  test.each(encodings)('$encoding body: a PATCH sets the fields it names and keeps the others', async ({ form }) => {
    const k = await s.newProject(`settings-patch-${form}`);
    const chainMetadata = { starbucks: { loyalty: true, tier: 2 } };
    const placeFilters = { categories: ['food-beverage'], chains: ['starbucks'] };
    const first = await call(s, 'PATCH', '/v1/settings', { key: k.testSk, form, body: { chainMetadata } });
    expect(first.body).toEqual({ meta: { code: 200 }, ...EMPTY, chainMetadata, settings: { ...EMPTY, chainMetadata } });
    const second = await call(s, 'PATCH', '/v1/settings', { key: k.testSk, form, body: { placeFilters } });
    expect(second.body.settings).toEqual({ ...EMPTY, chainMetadata, placeFilters });
    expect(await settingsOf(k.testSk)).toEqual({ ...EMPTY, chainMetadata, placeFilters });
  });

  test('a field is replaced whole, not merged', async () => {
    const k = await s.newProject('settings-replace');
    await call(s, 'PATCH', '/v1/settings', { key: k.testSk, body: { chainMappings: { a: 'x', b: 'y' } } });
    await call(s, 'PATCH', '/v1/settings', { key: k.testSk, body: { chainMappings: { c: 'z' } } });
    expect((await settingsOf(k.testSk)).chainMappings).toEqual({ c: 'z' });
  });

  test('an empty dictionary clears a field; an empty PATCH changes nothing', async () => {
    const k = await s.newProject('settings-clear');
    await call(s, 'PATCH', '/v1/settings', { key: k.testSk, body: { chainMappings: { a: 'x' }, chainMetadata: { m: { n: 1 } } } });
    await call(s, 'PATCH', '/v1/settings', { key: k.testSk, body: { chainMappings: {} } });
    const empty = await call(s, 'PATCH', '/v1/settings', { key: k.testSk, body: {} });
    expect(empty.body.settings).toEqual({ ...EMPTY, chainMetadata: { m: { n: 1 } } });
    expect(await settingsOf(k.testSk)).toEqual({ ...EMPTY, chainMetadata: { m: { n: 1 } } });
  });

  test('PATCHes of different fields at once all land', async () => {
    const k = await s.newProject('settings-race');
    const replies = await Promise.all([
      call(s, 'PATCH', '/v1/settings', { key: k.testSk, body: { chainMetadata: { a: { n: 1 } } } }),
      call(s, 'PATCH', '/v1/settings', { key: k.testSk, body: { chainMappings: { b: '2' } } }),
      call(s, 'PATCH', '/v1/settings', { key: k.testSk, body: { placeFilters: { categories: ['c'] } } }),
    ]);
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(await settingsOf(k.testSk)).toEqual({ chainMetadata: { a: { n: 1 } }, chainMappings: { b: '2' }, placeFilters: { categories: ['c'] } });
  });

  test('test and live settings are separate', async () => {
    const k = await s.newProject('settings-env');
    await call(s, 'PATCH', '/v1/settings', { key: k.testSk, body: { chainMetadata: { env: { is: 'test' } } } });
    await call(s, 'PATCH', '/v1/settings', { key: k.liveSk, body: { chainMappings: { env: 'live' } } });
    expect(await settingsOf(k.testSk)).toEqual({ ...EMPTY, chainMetadata: { env: { is: 'test' } } });
    expect(await settingsOf(k.liveSk)).toEqual({ ...EMPTY, chainMappings: { env: 'live' } });
  });

  test('projects are separate', async () => {
    const a = await s.newProject('settings-a');
    const b = await s.newProject('settings-b');
    await call(s, 'PATCH', '/v1/settings', { key: a.testSk, body: { placeFilters: { chains: ['mine'] } } });
    expect(await settingsOf(b.testSk)).toEqual(EMPTY);
  });
});

describe("Radar's documented bodies (fixtures/radar/docs-api/places-settings-*.json)", () => {
  test('placeFilters with Radar\'s "chain" and "category" keys is kept and echoed at the top level', async () => {
    const k = await s.newProject('settings-radar-shape');
    const body = { chainMetadata: { mcdonalds: { availableDeals: false } }, chainMappings: { mcdonalds: 'retailer1' }, placeFilters: { chain: ['mcdonalds'], category: ['restaurant'] } };
    const reply = await call(s, 'PATCH', '/v1/settings', { key: k.liveSk, body });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ meta: { code: 200 }, ...body });
    expect(await settingsOf(k.liveSk)).toEqual(body);
  });
});

describe('PATCH: refused bodies change nothing', () => {
  let k: ProjectKeys;
  const kept = { chainMetadata: { kept: { on: true } } };
  beforeAll(async () => {
    k = await s.newProject('settings-refused');
    await call(s, 'PATCH', '/v1/settings', { key: k.testSk, body: kept });
  });
  const cases: Array<{ name: string; body: unknown; form?: boolean; want: Want }> = [
    { name: 'unknown field', body: { chainMetadata: { a: { n: 1 } }, colour: 'red' }, want: { status: 400, param: 'colour', message: 'colour is not a settings field; use chainMetadata, chainMappings, placeFilters' } },
    { name: 'a list instead of a dictionary', body: { chainMetadata: [1, 2] }, want: { status: 400, param: 'chainMetadata', message: 'chainMetadata must be a dictionary (a JSON object)' } },
    { name: 'a number instead of a dictionary', body: { placeFilters: 5 }, want: { status: 400, param: 'placeFilters', message: 'placeFilters must be a dictionary (a JSON object)' } },
    { name: 'form: text that is not JSON', body: { chainMappings: 'a=b' }, form: true, want: { status: 400, param: 'chainMappings', message: 'chainMappings must be valid JSON' } },
    { name: 'form: a JSON list', body: { chainMappings: '[1]' }, form: true, want: { status: 400, param: 'chainMappings', message: 'chainMappings must be a dictionary (a JSON object)' } },
    { name: 'valid field beside a bad one', body: { chainMappings: { fine: 'x' }, placeFilters: 'nope' }, want: { status: 400, param: 'placeFilters' } },
    { name: 'over 256 KiB in all', body: { chainMetadata: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`c${i}`, Object.fromEntries(Array.from({ length: 16 }, (_, j) => [`k${j}`, 'x'.repeat(1000)]))])) }, want: { status: 400, param: 'body', message: 'settings must be smaller than 256 KiB' } },
    { name: 'chainMappings: a value that is not a string', body: { chainMappings: { starbucks: 7 } }, want: { status: 400, param: 'chainMappings.starbucks', message: 'chainMappings.starbucks must be your ID for the chain: a string of 1 to 256 characters' } },
    { name: 'chainMappings: a key that is not a slug', body: { chainMappings: { 'Star Bucks': 'x' } }, want: { status: 400, param: 'chainMappings.Star Bucks' } },
    { name: 'chainMetadata: a slug mapped to a scalar', body: { chainMetadata: { starbucks: 1 } }, want: { status: 400, param: 'chainMetadata.starbucks', message: 'chainMetadata.starbucks must be a dictionary of metadata' } },
    { name: 'chainMetadata: a nested object value', body: { chainMetadata: { starbucks: { deep: { x: 1 } } } }, want: { status: 400, param: 'chainMetadata.starbucks.deep' } },
    { name: 'placeFilters: an unknown key', body: { placeFilters: { include: ['starbucks'] } }, want: { status: 400, param: 'placeFilters.include', message: 'placeFilters takes "chain" and "category" (lists of slugs), not "include"' } },
    { name: 'placeFilters: Radar\'s chain key not a list', body: { placeFilters: { chain: 'starbucks' } }, want: { status: 400, param: 'placeFilters.chain', message: 'placeFilters.chain must be a list of at most 1000 chain slugs' } },
    { name: 'placeFilters: an inherited name', body: { placeFilters: { toString: ['x'] } }, want: { status: 400, param: 'placeFilters.toString' } },
    { name: 'placeFilters: chains not a list', body: { placeFilters: { chains: 'starbucks' } }, want: { status: 400, param: 'placeFilters.chains', message: 'placeFilters.chains must be a list of at most 1000 chain slugs' } },
    { name: 'placeFilters: a category that is not a slug', body: { placeFilters: { categories: ['Food & Drink'] } }, want: { status: 400, param: 'placeFilters.categories' } },
    { name: 'a prototype-looking name', body: JSON.parse('{"__proto__": {"chainMetadata": {}}}'), want: { status: 400, param: '__proto__' } },
  ];
  test.each(cases)('$name → $want.status $want.param', async ({ body, form, want }) => {
    await expectCase(s, { method: 'PATCH', path: '/v1/settings', opts: { key: k.testSk, body, form }, want });
    expect(await settingsOf(k.testSk)).toEqual({ ...EMPTY, ...kept });
  });
});
