// GET /v1/geocode/ip over HTTP against a real server. The client address comes from X-Forwarded-For
// (the gateway trusts its loopback proxy, WAYMARK_TRUST_PROXY=loopback). MaxMind's test databases
// give known answers (81.2.69.142 → London, 216.160.83.56 → Milton, WA); the bundled DB-IP City Lite
// database answers with no configuration at all.
import fs from 'node:fs';
import path from 'node:path';
import { configFromEnv } from '../../server/config';
import { startTestServer, type TestServer } from '../support/server';
import { files, requires, requiresTest } from '../support/requires';

const MMDB = path.resolve(__dirname, '../../../shared/fixtures/mmdb');
const CITY_TEST = path.join(MMDB, 'GeoIP2-City-Test.mmdb');
const ANONYMOUS_TEST = path.join(MMDB, 'GeoIP2-Anonymous-IP-Test.mmdb');
const RADAR_FIXTURES = path.resolve(__dirname, '../../../shared/fixtures/radar');

function ipGeocode(server: TestServer, forwardedFor?: string, key = server.keys.testPk) {
  return server.request('GET', '/v1/geocode/ip', { key, headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor } });
}

const TIME_ZONE = {
  id: expect.any(String), name: expect.any(String), code: expect.any(String),
  currentTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)$/), utcOffset: expect.any(Number), dstOffset: expect.any(Number),
};

const withMaxmindTests = requires('IP geocode on MaxMind test databases', files(CITY_TEST, ANONYMOUS_TEST));
withMaxmindTests('MaxMind test databases (configured through the environment)', () => {
  let server: TestServer;
  beforeAll(async () => {
    const env = configFromEnv({ WAYMARK_TRUST_PROXY: 'loopback', WAYMARK_IP_CITY_DATABASES: CITY_TEST, WAYMARK_IP_ANONYMOUS_DATABASE: ANONYMOUS_TEST });
    expect(env.ipGeocode).toEqual({ cityDatabases: [CITY_TEST], anonymousIpDatabase: ANONYMOUS_TEST });
    server = await startTestServer({ trustProxy: env.trustProxy, ipGeocode: env.ipGeocode });
  });
  afterAll(async () => {
    await server.close();
  });

  test('81.2.69.142 → London; every anonymity flag in the test database, so proxy', async () => {
    const r = await ipGeocode(server, '81.2.69.142');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      meta: { code: 200 },
      address: {
        latitude: 51.5142, longitude: -0.0931, geometry: { type: 'Point', coordinates: [-0.0931, 51.5142] },
        country: 'United Kingdom', countryCode: 'GB', countryFlag: '🇬🇧', state: 'England', stateCode: 'ENG', city: 'London',
        timeZone: { ...TIME_ZONE, id: 'Europe/London' },
      },
      proxy: true,
      ip: '81.2.69.142',
    });
    expect([0, 3600]).toContain(r.body.address.timeZone.utcOffset);
  });

  test('216.160.83.56 → Milton, WA, with postal and DMA codes; not a proxy', async () => {
    const r = await ipGeocode(server, '216.160.83.56');
    expect(r.body).toEqual({
      meta: { code: 200 },
      address: {
        latitude: 47.2513, longitude: -122.3149, geometry: { type: 'Point', coordinates: [-122.3149, 47.2513] },
        country: 'United States', countryCode: 'US', countryFlag: '🇺🇸', state: 'Washington', stateCode: 'WA', city: 'Milton',
        postalCode: '98354', dmaCode: '819', timeZone: { ...TIME_ZONE, id: 'America/Los_Angeles' },
      },
      proxy: false,
      ip: '216.160.83.56',
    });
    expect([-28800, -25200]).toContain(r.body.address.timeZone.utcOffset);
    expect(r.body.address.timeZone.utcOffset - r.body.address.timeZone.dstOffset).toBe(-28800);
  });

  test.each([
    ['the client is the left-most untrusted hop', '216.160.83.56, 127.0.0.1', '216.160.83.56', 'Milton'],
    ['an IPv4-mapped IPv6 address is answered as IPv4', '::ffff:81.2.69.142', '81.2.69.142', 'London'],
  ])('%s', async (_name, header, ip, city) => {
    const r = await ipGeocode(server, header);
    expect(r.body).toMatchObject({ ip, address: { city } });
  });

  test('IPv6: a Japanese network (zone from the database)', async () => {
    const r = await ipGeocode(server, '2001:218::1');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ip: '2001:218::1', proxy: false, address: { countryCode: 'JP', timeZone: { id: 'Asia/Tokyo', utcOffset: 32400, dstOffset: 0, code: 'JST' } } });
  });

  test('a database record without a zone gets the zone at its coordinates (China, UTC+8)', async () => {
    const r = await ipGeocode(server, '2001:250::1');
    expect(r.status).toBe(200);
    expect(r.body.address).toMatchObject({ countryCode: 'CN', timeZone: { utcOffset: 28800 } });
  });

  test.each([
    ['private', '10.1.2.3', /10\.1\.2\.3 is a private or reserved address.*WAYMARK_TRUST_PROXY/],
    ['loopback (no X-Forwarded-For: the client is this machine)', undefined, /private or reserved/],
    ['documentation range', '203.0.113.7', /private or reserved/],
    ['IPv6 unique-local', 'fd00::1', /private or reserved/],
    ['public but absent from the database', '8.8.8.8', /No location is known for 8\.8\.8\.8/],
  ])('%s → 404 naming the address, never a 500', async (_name, header, message) => {
    const r = await ipGeocode(server, header);
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ meta: { code: 404, param: 'ip', type: 'ERROR_NOT_FOUND', message: expect.stringMatching(message) } });
  });

  test('publishable endpoint: no key → 401; both environments answer', async () => {
    expect((await server.request('GET', '/v1/geocode/ip', { headers: { 'x-forwarded-for': '81.2.69.142' } })).status).toBe(401);
    expect((await ipGeocode(server, '81.2.69.142', server.keys.livePk)).status).toBe(200);
    expect((await ipGeocode(server, '81.2.69.142', server.keys.testSk)).status).toBe(200);
  });

  test('a secret key with an explicit ip locates that address, not the caller (server-side callers, radar-python)', async () => {
    const asked = (ip: string, key: string) => server.request('GET', '/v1/geocode/ip', { key, query: { ip }, headers: { 'x-forwarded-for': '81.2.69.142' } });
    const milton = await asked('216.160.83.56', server.keys.testSk);
    expect(milton.status).toBe(200);
    expect(milton.body).toMatchObject({ ip: '216.160.83.56', address: { city: 'Milton' } });
    expect((await asked('2001:218::1', server.keys.liveSk)).body).toMatchObject({ ip: '2001:218::1', address: { countryCode: 'JP' } });
    // A private address asked for is a 404 without the proxy advice, which is about the caller's address.
    const privateOne = await asked('10.1.2.3', server.keys.testSk);
    expect(privateOne.status).toBe(404);
    expect(privateOne.body.meta.message).toBe('10.1.2.3 is a private or reserved address and has no location');
  });

  test.each([
    ['a publishable key (it lives on devices)', '216.160.83.56', 'testPk', /secret key only/],
    ['text that is not an address', 'not-an-ip', 'testSk', /ip must be an IPv4 or IPv6 address, got "not-an-ip"/],
  ] as const)('ip with %s → 400 naming ip', async (_name, ip, key, message) => {
    const r = await server.request('GET', '/v1/geocode/ip', { key: server.keys[key], query: { ip }, headers: { 'x-forwarded-for': '81.2.69.142' } });
    expect(r.status).toBe(400);
    expect(r.body.meta).toMatchObject({ code: 400, param: 'ip', message: expect.stringMatching(message) });
  });

  const withRadarFixtures = requiresTest('IP geocode against the Radar SDK fixtures', files(path.join(RADAR_FIXTURES, 'android/geocode_ip.json'))).each(['android', 'ios']);
  withRadarFixtures('%s geocode_ip.json: our top-level keys and every address field we send are fields Radar sends', async (platform) => {
    const fixture = JSON.parse(fs.readFileSync(path.join(RADAR_FIXTURES, platform, 'geocode_ip.json'), 'utf8'));
    const r = await ipGeocode(server, '216.160.83.56');
    // The SDK fixtures omit `ip` (the spec lists it); the rest must match.
    expect(Object.keys(r.body).sort()).toEqual([...Object.keys(fixture), 'ip'].sort());
    const radarFields = new Set([...Object.keys(fixture.address), 'timeZone']);
    for (const field of Object.keys(r.body.address)) expect(radarFields.has(field) ? field : `unexpected ${field}`).toBe(field);
    expect(typeof r.body.proxy).toBe(typeof fixture.proxy);
  });
});

describe('without a trusted proxy, X-Forwarded-For is ignored', () => {
  test('the client is the socket peer (loopback): 404, whatever the header says', async () => {
    const server = await startTestServer();
    try {
      const r = await ipGeocode(server, '81.2.69.142');
      expect(r.status).toBe(404);
      expect(r.body.meta.message).toMatch(/^127\.0\.0\.1 is a private or reserved address/);
    } finally {
      await server.close();
    }
  });
});

describe('the bundled DB-IP City Lite database (the default)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ trustProxy: 'loopback' });
  });
  afterAll(async () => {
    await server.close();
  });

  // Which country a database puts an address in changes between releases (DB-IP currently places Google's
  // IPv6 resolver in Canada): only the long-stable IPv4 answer is pinned.
  test.each([
    ['Google DNS, IPv4', '8.8.8.8', 'US'],
    ['Google DNS, IPv6', '2001:4860:4860::8888', undefined],
  ])('%s', async (_name, ip, countryCode) => {
    const r = await ipGeocode(server, ip);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ip, proxy: false, address: { countryCode: countryCode ?? expect.stringMatching(/^[A-Z]{2}$/), country: expect.any(String) } });
    const { latitude, longitude, geometry, timeZone } = r.body.address;
    expect(geometry).toEqual({ type: 'Point', coordinates: [longitude, latitude] });
    // DB-IP Lite has no zones: filled in from the coordinates.
    expect(timeZone).toEqual(TIME_ZONE);
    if (countryCode === 'US') expect(timeZone.id).toMatch(/^America\//);
    // No postal codes in the Lite edition, and no field is sent empty.
    expect(r.body.address).not.toHaveProperty('postalCode');
    for (const value of Object.values(r.body.address)) expect(value === '' || value === null).toBe(false);
  }, 60_000);
});

describe('configuration', () => {
  test('a missing database file stops start-up with its path', async () => {
    const missing = path.join(MMDB, 'no-such-database.mmdb');
    await expect(startTestServer({ ipGeocode: { cityDatabases: [missing] } })).rejects.toThrow(/IP database not found: .*no-such-database\.mmdb/);
  });

  test('unset variables: the bundled databases and no proxy detection', () => {
    expect(configFromEnv({}).ipGeocode).toEqual({ cityDatabases: undefined, anonymousIpDatabase: undefined });
  });
});
