// The embedded geocoding index: one SQLite file per extract, `<extract>/geocoding/index.sqlite`. The
// stage writes it; the gateway's embedded geocoder reads it. Names are stored as written and in their
// normal form (gateway/engine/geocoding/normalize.ts); FTS5 tables index the normal forms and hold no
// copy of the text (contentless), their rowid being the row of the table they index.
export const INDEX_FILE = 'index.sqlite';
export const INDEX_FORMAT = 'waymark-geocoding';
export const INDEX_VERSION = 1;

/** Radar's admin fields, stored on every row: an answer needs no joins. */
export const ADMIN_COLUMNS = ['country_code', 'country', 'state', 'state_code', 'county', 'city', 'borough', 'neighborhood', 'postal_code'] as const;
const ADMIN_SQL = ADMIN_COLUMNS.map((c) => `${c} TEXT`).join(', ');

export const INDEX_SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE streets (id INTEGER PRIMARY KEY, name TEXT NOT NULL, norm TEXT NOT NULL, lon REAL NOT NULL, lat REAL NOT NULL, ${ADMIN_SQL});
CREATE VIRTUAL TABLE street_fts USING fts5(norm, content='', prefix='1 2 3');
CREATE TABLE addresses (id INTEGER PRIMARY KEY, street INTEGER NOT NULL, number TEXT NOT NULL, num REAL, unit TEXT, flats TEXT, name TEXT, lon REAL NOT NULL, lat REAL NOT NULL, ${ADMIN_SQL});
CREATE INDEX addresses_by_street ON addresses (street, number);
CREATE TABLE interpolations (id INTEGER PRIMARY KEY, street INTEGER NOT NULL, first REAL NOT NULL, last REAL NOT NULL, step INTEGER NOT NULL, coords TEXT NOT NULL);
CREATE INDEX interpolations_by_street ON interpolations (street);
CREATE TABLE places (id INTEGER PRIMARY KEY, name TEXT NOT NULL, kind TEXT NOT NULL, number TEXT, street_name TEXT, lon REAL NOT NULL, lat REAL NOT NULL, ${ADMIN_SQL});
CREATE VIRTUAL TABLE place_fts USING fts5(norm, content='', prefix='1 2 3');
CREATE TABLE areas (id INTEGER PRIMARY KEY, name TEXT NOT NULL, layer TEXT NOT NULL, lon REAL NOT NULL, lat REAL NOT NULL, ${ADMIN_SQL});
CREATE VIRTUAL TABLE area_fts USING fts5(norm, content='', prefix='1 2 3');
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
