// OSM admin_level → Radar's admin fields, per country (facts from the OSM wiki's admin_level table).
// A level missing from a country's row is not used. Several levels may give a locality (US: 5 for New
// York City, 7 for New England towns, 8 for cities and villages); the most specific one wins.
import type { AdminField } from './admin-context';

type LevelMap = Readonly<Record<number, AdminField>>;

const DEFAULT_LEVELS: LevelMap = { 2: 'country', 4: 'state', 6: 'county', 8: 'city', 9: 'neighborhood', 10: 'neighborhood' };

const BY_COUNTRY: Readonly<Record<string, LevelMap>> = {
  US: { 2: 'country', 4: 'state', 5: 'city', 6: 'county', 7: 'city', 8: 'city', 9: 'neighborhood', 10: 'neighborhood' },
  CA: { 2: 'country', 4: 'state', 6: 'county', 8: 'city', 10: 'neighborhood' },
  // Liechtenstein's Gemeinden are level 8; it has no states or counties.
  LI: { 2: 'country', 8: 'city' },
  DE: { 2: 'country', 4: 'state', 6: 'county', 8: 'city', 9: 'borough', 10: 'neighborhood' },
  AT: { 2: 'country', 4: 'state', 6: 'county', 8: 'city', 9: 'borough', 10: 'neighborhood' },
  CH: { 2: 'country', 4: 'state', 6: 'county', 8: 'city', 10: 'neighborhood' },
  FR: { 2: 'country', 4: 'state', 6: 'county', 8: 'city', 9: 'borough', 10: 'neighborhood' },
  GB: { 2: 'country', 4: 'state', 6: 'county', 8: 'city', 10: 'neighborhood' },
};

export function adminFieldOf(countryCode: string | undefined, level: number): AdminField | undefined {
  const map = (countryCode !== undefined && BY_COUNTRY[countryCode]) || DEFAULT_LEVELS;
  return map[level];
}

/** New York City's boroughs are counties in OSM; Radar names them as boroughs too. */
export const NYC_BOROUGH_OF_COUNTY: Readonly<Record<string, string>> = {
  'Kings County': 'Brooklyn',
  'Queens County': 'Queens',
  'New York County': 'Manhattan',
  'Bronx County': 'Bronx',
  'Richmond County': 'Staten Island',
};
