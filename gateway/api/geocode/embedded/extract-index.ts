// One extract's geocoding index (data/osm/stages/geocoding/index-schema.ts), opened read-only: prepared
// statements for the forward search and the address points in a grid for reverse geocoding.
import Database from 'better-sqlite3';
import path from 'node:path';
import { ADMIN_COLUMNS, INDEX_FILE, INDEX_FORMAT, INDEX_VERSION, type AdminRow } from '../../../../data/osm/stages/geocoding/index-schema';
import { PointGrid } from '../../../engine/geocoding/point-grid';

export interface StreetRow extends AdminRow {
  id: number;
  name: string;
  norm: string;
  lon: number;
  lat: number;
}

export interface AddressRow extends AdminRow {
  id: number;
  street: number;
  number: string;
  num: number | null;
  unit: string | null;
  flats: string | null;
  name: string | null;
  lon: number;
  lat: number;
  street_name: string;
}

export interface InterpolationRow {
  first: number;
  last: number;
  step: number;
  coords: string;
}

export interface PlaceRow extends AdminRow {
  id: number;
  name: string;
  kind: string;
  number: string | null;
  street_name: string | null;
  lon: number;
  lat: number;
}

export interface AreaRow extends AdminRow {
  id: number;
  name: string;
  layer: string;
  lon: number;
  lat: number;
}

/** Rows an FTS query may bring back before scoring: bounds the work of a vague query. */
const FTS_LIMIT = 200;
const ADMIN = ADMIN_COLUMNS.map((c) => `a.${c}`).join(', ');

export class ExtractIndex {
  private readonly db: Database.Database;
  private readonly streetSearch: Database.Statement<[string, number], StreetRow>;
  private readonly addressAt: Database.Statement<[number, string], AddressRow>;
  private readonly numberedFrom: Database.Statement<[number, string, string, number], AddressRow>;
  private readonly below: Database.Statement<[number, number], AddressRow>;
  private readonly above: Database.Statement<[number, number], AddressRow>;
  private readonly interpolationsOf: Database.Statement<[number], InterpolationRow>;
  private readonly placeSearch: Database.Statement<[string, number], PlaceRow>;
  private readonly areaSearch: Database.Statement<[string, number], AreaRow>;
  private readonly addressById: Database.Statement<[number], AddressRow>;
  private readonly placeById: Database.Statement<[number], PlaceRow>;
  private readonly addressIds: Uint32Array;
  readonly addressGrid: PointGrid;
  private readonly placeIds: Uint32Array;
  readonly placeGrid: PointGrid;

  constructor(readonly extract: string, dir: string) {
    this.db = new Database(path.join(dir, INDEX_FILE), { readonly: true, fileMustExist: true });
    const meta = new Map(this.db.prepare<[], { key: string; value: string }>('SELECT key, value FROM meta').all().map((r) => [r.key, r.value]));
    if (meta.get('format') !== INDEX_FORMAT || meta.get('version') !== String(INDEX_VERSION)) {
      this.db.close();
      throw new Error(`${path.join(dir, INDEX_FILE)} is not a version ${INDEX_VERSION} geocoding index: re-import the extract`);
    }
    const addressSelect = `SELECT a.id, a.street, a.number, a.num, a.unit, a.flats, a.name, a.lon, a.lat, s.name AS street_name, ${ADMIN} FROM addresses a JOIN streets s ON s.id = a.street`;
    this.streetSearch = this.db.prepare(`SELECT a.id, a.name, a.norm, a.lon, a.lat, ${ADMIN} FROM street_fts f JOIN streets a ON a.id = f.rowid WHERE street_fts MATCH ? ORDER BY f.rank LIMIT ?`);
    this.addressAt = this.db.prepare(`${addressSelect} WHERE a.street = ? AND a.number = ?`);
    this.numberedFrom = this.db.prepare(`${addressSelect} WHERE a.street = ? AND a.number >= ? AND a.number < ? ORDER BY a.num LIMIT ?`);
    this.below = this.db.prepare(`${addressSelect} WHERE a.street = ? AND a.num < ? ORDER BY a.num DESC LIMIT 1`);
    this.above = this.db.prepare(`${addressSelect} WHERE a.street = ? AND a.num > ? ORDER BY a.num ASC LIMIT 1`);
    this.interpolationsOf = this.db.prepare('SELECT first, last, step, coords FROM interpolations WHERE street = ?');
    this.placeSearch = this.db.prepare(`SELECT a.id, a.name, a.kind, a.number, a.street_name, a.lon, a.lat, ${ADMIN} FROM place_fts f JOIN places a ON a.id = f.rowid WHERE place_fts MATCH ? ORDER BY f.rank LIMIT ?`);
    this.areaSearch = this.db.prepare(`SELECT a.id, a.name, a.layer, a.lon, a.lat, ${ADMIN} FROM area_fts f JOIN areas a ON a.id = f.rowid WHERE area_fts MATCH ? ORDER BY f.rank LIMIT ?`);
    this.addressById = this.db.prepare(`${addressSelect} WHERE a.id = ?`);
    this.placeById = this.db.prepare(`SELECT a.id, a.name, a.kind, a.number, a.street_name, a.lon, a.lat, ${ADMIN} FROM places a WHERE a.id = ?`);
    const load = (sql: string): [Uint32Array, PointGrid] => {
      const rows = this.db.prepare<[], { id: number; lon: number; lat: number }>(sql).all();
      const ids = Uint32Array.from(rows, (r) => r.id);
      return [ids, new PointGrid(Float64Array.from(rows, (r) => r.lon), Float64Array.from(rows, (r) => r.lat), 0.002)];
    };
    [this.addressIds, this.addressGrid] = load('SELECT id, lon, lat FROM addresses');
    [this.placeIds, this.placeGrid] = load('SELECT id, lon, lat FROM places');
  }

  streets(match: string): StreetRow[] {
    return this.streetSearch.all(match, FTS_LIMIT);
  }

  address(street: number, number: string): AddressRow[] {
    return this.addressAt.all(street, number);
  }

  /** Addresses of a street whose number begins with `typed` ("1" → 1, 10, 11, 1a…), lowest first; on the (street, number) index. */
  addressesNumbered(street: number, typed: string, limit: number): AddressRow[] {
    return this.numberedFrom.all(street, typed, `${typed}\u{10ffff}`, limit);
  }

  /** The known numbers just below and above `value` on a street. */
  neighbours(street: number, value: number): [AddressRow | undefined, AddressRow | undefined] {
    return [this.below.get(street, value), this.above.get(street, value)];
  }

  interpolations(street: number): InterpolationRow[] {
    return this.interpolationsOf.all(street);
  }

  places(match: string): PlaceRow[] {
    return this.placeSearch.all(match, FTS_LIMIT);
  }

  areas(match: string): AreaRow[] {
    return this.areaSearch.all(match, FTS_LIMIT);
  }

  nearestAddresses(lon: number, lat: number, maxMeters: number, k: number): Array<[AddressRow, number]> {
    return this.addressGrid.nearest(lon, lat, maxMeters, k).map(([i, d]) => [this.addressById.get(this.addressIds[i])!, d]);
  }

  nearestPlaces(lon: number, lat: number, maxMeters: number, k: number): Array<[PlaceRow, number]> {
    return this.placeGrid.nearest(lon, lat, maxMeters, k).map(([i, d]) => [this.placeById.get(this.placeIds[i])!, d]);
  }

  close(): void {
    this.db.close();
  }
}

/** An FTS5 query from normalised words: any of them, the last as a prefix while typing. */
export function ftsAny(words: readonly string[], lastIsPrefix: boolean): string | undefined {
  const terms = words.filter((w) => w !== '').map((w, i, all) => `"${w.replace(/"/g, '""')}"${lastIsPrefix && i === all.length - 1 ? '*' : ''}`);
  return terms.length === 0 ? undefined : terms.join(' OR ');
}

/**
 * The FTS5 query of the typo pass: each word of four letters or more by its first three (a typo seldom
 * sits there), so "wolf stret" reaches "wolfe street"; the matcher then decides.
 */
export function ftsTypos(words: readonly string[]): string | undefined {
  const terms = [...new Set(words.filter((w) => w.length >= 4 && !/\d/.test(w)).map((w) => `"${w.slice(0, 3).replace(/"/g, '""')}"*`))];
  return terms.length === 0 ? undefined : terms.join(' OR ');
}
