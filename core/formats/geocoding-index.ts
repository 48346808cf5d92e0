// The embedded geocoding index: one SQLite file per extract, `<extract>/geocoding/index.sqlite`. The
// stage writes it; the gateway's embedded geocoder reads it. Names are stored as written and in their
// normal form (core/geocoding/normalize.ts); FTS5 tables index the normal forms and hold no
// copy of the text (contentless), their rowid being the row of the table they index.
//
// Version 2, for regions: a state holds the same street name in hundreds of towns ("Main Street") and
// the same POI name hundreds of times (a chain). A name search therefore runs over the DISTINCT names
// (street_names, place_names: as many as one town has, about), and the rows of the names that matched
// are then chosen by the town and postal code the query names (street_area_fts, place_area_fts: each
// row's town, county, neighbourhood and postal codes, behind a key token "k<name id>") or by nearness
// (the name_id index and the row's coordinates). One search costs the same on a tile and on a region.
//
// Version 3, for `lang`: names in Radar's other languages from OSM's name:xx tags. `translations` holds
// them by kind and name (streets by normal form, places and admin areas by the name as written), and
// each translated street or place name is also a searchable name (street_names / place_names rows with
// `of` = the name id whose rows carry it), so "Oceanographic Museum" finds "Musée Océanographique".
// The gateway still reads version 2 (no translations: names as mapped, whatever `lang` asks).
export const INDEX_FILE = 'index.sqlite';
export const INDEX_FORMAT = 'waymark-geocoding';
export const INDEX_VERSION = 3;
/** Versions the gateway reads: the current one and the one before it. */
export const READABLE_INDEX_VERSIONS: readonly number[] = [2, 3];

/** What a translated name belongs to: a street's normal form, a place's or an admin area's name. */
export type TranslationKind = 'street' | 'place' | 'area';

/** Radar's admin fields, stored on every row: an answer needs no joins. */
export const ADMIN_COLUMNS = ['country_code', 'country', 'state', 'state_code', 'county', 'city', 'borough', 'neighborhood', 'postal_code'] as const;
const ADMIN_SQL = ADMIN_COLUMNS.map((c) => `${c} TEXT`).join(', ');

export const INDEX_SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE street_names (id INTEGER PRIMARY KEY, norm TEXT NOT NULL, of INTEGER);
CREATE VIRTUAL TABLE street_name_fts USING fts5(norm, content='', prefix='1 2 3');
CREATE TABLE streets (id INTEGER PRIMARY KEY, name_id INTEGER NOT NULL, name TEXT NOT NULL, norm TEXT NOT NULL, lon REAL NOT NULL, lat REAL NOT NULL, ${ADMIN_SQL});
CREATE INDEX streets_by_name ON streets (name_id);
CREATE VIRTUAL TABLE street_area_fts USING fts5(area, content='');
CREATE TABLE addresses (id INTEGER PRIMARY KEY, street INTEGER NOT NULL, number TEXT NOT NULL, num REAL, unit TEXT, flats TEXT, name TEXT, lon REAL NOT NULL, lat REAL NOT NULL, ${ADMIN_SQL});
CREATE INDEX addresses_by_street ON addresses (street, number);
CREATE TABLE interpolations (id INTEGER PRIMARY KEY, street INTEGER NOT NULL, first REAL NOT NULL, last REAL NOT NULL, step INTEGER NOT NULL, coords TEXT NOT NULL);
CREATE INDEX interpolations_by_street ON interpolations (street);
CREATE TABLE place_names (id INTEGER PRIMARY KEY, name TEXT NOT NULL, of INTEGER);
CREATE VIRTUAL TABLE place_name_fts USING fts5(norm, content='', prefix='1 2 3');
CREATE TABLE places (id INTEGER PRIMARY KEY, name_id INTEGER NOT NULL, name TEXT NOT NULL, kind TEXT NOT NULL, number TEXT, street_name TEXT, lon REAL NOT NULL, lat REAL NOT NULL, ${ADMIN_SQL});
CREATE INDEX places_by_name ON places (name_id);
CREATE VIRTUAL TABLE place_area_fts USING fts5(area, content='');
CREATE TABLE areas (id INTEGER PRIMARY KEY, name TEXT NOT NULL, layer TEXT NOT NULL, lon REAL NOT NULL, lat REAL NOT NULL, ${ADMIN_SQL});
CREATE VIRTUAL TABLE area_fts USING fts5(norm, content='', prefix='1 2 3');
CREATE TABLE translations (kind TEXT NOT NULL, name TEXT NOT NULL, lang TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (kind, name, lang)) WITHOUT ROWID;
`;

/** A row's admin fields, as the writer takes them and the reader returns them. */
export interface AdminRow {
  country_code: string | null;
  country: string | null;
  state: string | null;
  state_code: string | null;
  county: string | null;
  city: string | null;
  borough: string | null;
  neighborhood: string | null;
  postal_code: string | null;
}

/** The token that ties a row's area text to its name: the area search of one name's rows starts with it. */
export function nameKey(nameId: number): string {
  return `k${nameId}`;
}
