import fs from 'node:fs';
import path from 'node:path';
import { readCityRecord } from '../../adapters/ip-locator/maxmind/city-record';
import { bundledCityDatabases, createMaxmindIpLocator } from '../../adapters/ip-locator/maxmind/maxmind-ip-locator';
import { isPublicAddress, parseAddress } from '../../adapters/ip-locator/public-address';
import { createGeoTzTimeZones } from '../../adapters/time-zones/geo-tz/geo-tz-time-zones';
import { files, requires } from '../support/requires';

const MMDB = path.resolve(__dirname, '../../../shared/fixtures/mmdb');
const CITY_TEST = path.join(MMDB, 'GeoIP2-City-Test.mmdb');
const LITE_CITY_TEST = path.join(MMDB, 'GeoLite2-City-Test.mmdb');
const ANONYMOUS_TEST = path.join(MMDB, 'GeoIP2-Anonymous-IP-Test.mmdb');

describe('address parsing and classification', () => {
  test.each([
    ['plain IPv4', '81.2.69.142', { family: 4, text: '81.2.69.142' }],
    ['spaces around it', '  8.8.8.8 ', { family: 4, text: '8.8.8.8' }],
    ['IPv4-mapped IPv6', '::ffff:81.2.69.142', { family: 4, text: '81.2.69.142' }],
    ['IPv4-mapped IPv6 in hex', '::ffff:5102:458e', { family: 4, text: '81.2.69.142' }],
    ['NAT64', '64:ff9b::808:808', { family: 4, text: '8.8.8.8' }],
    ['bracketed IPv6 with a zone', '[fe80::1%eth0]', { family: 6, text: 'fe80:0:0:0:0:0:0:1' }],
    ['compressed IPv6', '2001:480:10::1', { family: 6, text: '2001:480:10:0:0:0:0:1' }],
    ['not an address', 'localhost', undefined],
    ['an IPv4 with a port', '8.8.8.8:443', undefined],
    ['empty', '', undefined],
  ])('%s', (_name, input, expected) => {
    expect(parseAddress(input)).toEqual(expected);
  });

  test.each([
    ['8.8.8.8', true], ['81.2.69.142', true], ['2001:480:10::1', true], ['2606:4700::1111', true],
    ['10.1.2.3', false], ['172.16.0.1', false], ['172.32.0.1', true], ['192.168.1.1', false], ['127.0.0.1', false],
    ['169.254.1.1', false], ['100.64.0.1', false], ['100.128.0.1', true], ['0.0.0.0', false], ['224.0.0.1', false],
    ['255.255.255.255', false], ['192.0.2.5', false], ['203.0.113.9', false], ['::1', false], ['::', false],
    ['fd00::1', false], ['fe80::1', false], ['ff02::1', false], ['2001:db8::1', false], ['::ffff:10.0.0.1', false],
  ])('%s public: %s', (ip, expected) => {
    const parsed = parseAddress(ip);
    expect(parsed).toBeDefined();
    if (parsed !== undefined) expect(isPublicAddress(parsed)).toBe(expected);
  });
});

const withMaxmindTestDbs = requires('MaxMind test databases', files(CITY_TEST, LITE_CITY_TEST, ANONYMOUS_TEST));
withMaxmindTestDbs("MaxMind's test databases (nested GeoIP2 layout)", () => {
  // Opened in beforeAll: a skipped describe body still runs at collection time, without the files.
  let locator: ReturnType<typeof createMaxmindIpLocator>;
  beforeAll(() => {
    locator = createMaxmindIpLocator({ cityDatabases: [CITY_TEST], anonymousIpDatabase: ANONYMOUS_TEST });
  });

  test.each([
    ['81.2.69.142', {
      country: 'United Kingdom', countryCode: 'GB', countryFlag: '🇬🇧', state: 'England', stateCode: 'ENG', city: 'London',
      latitude: 51.5142, longitude: -0.0931, accuracyRadius: 10, timeZone: 'Europe/London',
    }],
    ['216.160.83.56', {
      country: 'United States', countryCode: 'US', countryFlag: '🇺🇸', state: 'Washington', stateCode: 'WA', city: 'Milton',
      postalCode: '98354', dmaCode: '819', latitude: 47.2513, longitude: -122.3149, accuracyRadius: 22, timeZone: 'America/Los_Angeles',
    }],
    ['2001:480:10::1', { countryCode: 'US', stateCode: 'CA', city: 'San Diego', postalCode: '92101', dmaCode: '825' }],
    ['::ffff:81.2.69.142', { countryCode: 'GB', city: 'London' }],
  ])('%s', (ip, expected) => {
    const location = locator.locate(ip);
    expect(location).toMatchObject(expected);
  });

  test('exactly the fields the database has: no postal code for London', () => {
    expect(locator.locate('81.2.69.142')).not.toHaveProperty('postalCode');
  });

  test.each(['10.0.0.1', '127.0.0.1', '::1', '192.168.0.10', 'not-an-ip', '8.8.8.8' /* absent from the test DB */])(
    '%s locates nowhere', (ip) => {
      expect(locator.locate(ip)).toBeUndefined();
    },
  );

  test('GeoLite2 City has the same layout', () => {
    const lite = createMaxmindIpLocator({ cityDatabases: [LITE_CITY_TEST] });
    expect(lite.locate('81.2.69.142')).toMatchObject({ countryCode: 'GB', city: 'London', timeZone: 'Europe/London' });
    expect(lite.isProxy).toBeUndefined();
  });

  test.each([
    ['81.2.69.142', true, 'every anonymity flag'],
    ['1.2.0.1', true, 'anonymous VPN'],
    ['186.30.236.5', true, 'public proxy'],
    ['65.0.0.1', true, 'Tor exit node'],
    ['71.160.223.5', true, 'hosting provider marked anonymous'],
    ['216.160.83.56', false, 'not in the anonymous-IP database'],
    ['10.0.0.1', false, 'private'],
    ['garbage', false, 'not an address'],
  ])('proxy %s → %s (%s)', (ip, expected) => {
    expect(locator.isProxy?.(ip)).toBe(expected);
  });

  test('a database path that does not exist fails at construction', () => {
    expect(() => createMaxmindIpLocator({ cityDatabases: [path.join(MMDB, 'missing.mmdb')] })).toThrow(/not found/);
  });
});

describe('bundled DB-IP City Lite (flat ip-location-db layout)', () => {
  const locator = createMaxmindIpLocator({ timeZones: createGeoTzTimeZones() });

  test('ships both files', () => {
    for (const file of bundledCityDatabases()) expect(fs.statSync(file).size).toBeGreaterThan(10_000_000);
  });

  test('a US address: state code from the state name, time zone from the coordinates', () => {
    const location = locator.locate('8.8.8.8');
    expect(location).toMatchObject({ country: 'United States', countryCode: 'US', countryFlag: '🇺🇸' });
    expect(location?.stateCode).toMatch(/^[A-Z]{2}$/);
    expect(location?.timeZone).toMatch(/^America\//);
    expect(Math.abs(location?.latitude ?? 0)).toBeGreaterThan(0);
  });

  test('IPv4 and IPv6 addresses each find their file', () => {
    expect(locator.locate('81.2.69.142')?.countryCode).toBe('GB');
    expect(locator.locate('2a00:1450:4001:80b::200e')?.countryCode).toMatch(/^[A-Z]{2}$/);
  });

  test('private addresses locate nowhere, and there is no proxy source', () => {
    expect(locator.locate('192.168.1.1')).toBeUndefined();
    expect(locator.isProxy).toBeUndefined();
  });
});

describe('readCityRecord', () => {
  test.each([
    ['flat, with empty strings for unknowns',
      { city: 'Montreal', country_code: 'CA', latitude: 45.5, longitude: -73.56, postcode: '', state1: 'Quebec', state2: '', timezone: '' },
      { countryCode: 'CA', stateName: 'Quebec', city: 'Montreal', latitude: 45.5, longitude: -73.56, postalCode: undefined, timeZone: undefined }],
    ['nested, country only (GeoIP2 Country layout)',
      { country: { iso_code: 'SE', names: { en: 'Sweden' } } },
      { countryCode: 'SE', countryName: 'Sweden', latitude: undefined }],
    ['nested, registered country when the country is missing',
      { registered_country: { iso_code: 'US', names: { en: 'United States' } }, location: { latitude: 1, longitude: 2 } },
      { countryCode: 'US', latitude: 1, longitude: 2 }],
    ['not an object', null, undefined],
  ])('%s', (_name, record, expected) => {
    const read = readCityRecord(record);
    if (expected === undefined) expect(read).toBeUndefined();
    else expect(read).toMatchObject(expected);
  });
});
