// One extract's geocoding index (core/formats/geocoding-index.ts), opened read-only: prepared
// statements for the forward search and the address points in a grid for reverse geocoding.
import Database from 'better-sqlite3';
import path from 'node:path';
import { ADMIN_COLUMNS, INDEX_FILE, INDEX_FORMAT, READABLE_INDEX_VERSIONS, nameKey, type AdminRow, type TranslationKind } from '../../../core/formats/geocoding-index';
import { PointGrid } from '../../../core/geocoding/point-grid';
import { nameTokens } from '../../../core/geocoding/normalize';
import { NameDirectory } from '../../../core/geocoding/name-directory';
import { rowsHoldingMost } from '../../../core/geocoding/area-choice';
import { LeastRecentlyUsed } from '../../../core/cache/least-recently-used';

export interface StreetRow extends AdminRow {
  id: number;
  name_id: number;
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
  name_id: number;
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

/** A distinct street or place name that matched a search. */
export interface NameRow {
  id: number;
  /** Normal form for streets, the name as written for places. */
  name: string;
  /** A name in another language: the id of the name whose rows carry it (null: this name's own rows). */
  of: number | null;
}

/** How the rows of one name are chosen among its many towns (a region's hundred Main Streets). */
export interface RowChoice {
  /** Words of the towns and postal code the query names: rows whose area holds them come first. */
  areaWords: readonly string[];
  /** Rows nearest this point come next. */
  near?: readonly [number, number];
}

/** Place names whose words are kept once computed: a town's worth, about. */
const NAME_TOKENS_KEPT = 50_000;
/** Names a query may try in memory before the bounded FTS search takes over (a one-letter prefix on a state). */
const DIRECTORY_CANDIDATES = 5_000;
/** Rows an FTS query may bring back before scoring: bounds the work of a vague query. */
const FTS_LIMIT = 200;
/** Rows of one name taken by area agreement, and by nearness: a name's best towns, not all of them. */
const ROWS_BY_AREA = 8;
const ROWS_BY_NEARNESS = 8;
/** Rows of one name read for each town word: a name in every town of a country stays bounded. */
const AREA_ROWS_READ = 5_000;
const ADMIN = ADMIN_COLUMNS.map((c) => `a.${c}`).join(', ');
/** Squared degrees with longitude scaled by cos(latitude): an order, not a distance. */
const NEAREST_FIRST = 'ORDER BY ((a.lon - @lon) * @kx) * ((a.lon - @lon) * @kx) + (a.lat - @lat) * (a.lat - @lat) LIMIT @limit';

interface NearParams {
  id: number;
  lon: number;
  lat: number;
  kx: number;
  limit: number;
}

export class ExtractIndex {
  private readonly db: Database.Database;
  private readonly streetNameSearch: Database.Statement<[string, number], NameRow>;
  private readonly streetAreaIds: Database.Statement<[string, number], number>;
  private readonly streetById: Database.Statement<[number], StreetRow>;
  private readonly streetsNear: Database.Statement<[NearParams], StreetRow>;
  private readonly addressAt: Database.Statement<[number, string], AddressRow>;
  private readonly numberedFrom: Database.Statement<[number, string, string, number], AddressRow>;
  private readonly below: Database.Statement<[number, number], AddressRow>;
  private readonly above: Database.Statement<[number, number], AddressRow>;
  private readonly interpolationsOf: Database.Statement<[number], InterpolationRow>;
  private readonly placeNameSearch: Database.Statement<[string, number], NameRow>;
  private readonly placeAreaIds: Database.Statement<[string, number], number>;
  private readonly placeRowById: Database.Statement<[number], PlaceRow>;
  private readonly placesNear: Database.Statement<[NearParams], PlaceRow>;
  private readonly areaSearch: Database.Statement<[string, number], AreaRow>;
  private readonly addressById: Database.Statement<[number], AddressRow>;
  private readonly placeById: Database.Statement<[number], PlaceRow>;
  private readonly addressIds: Uint32Array;
  readonly addressGrid: PointGrid;
  private readonly placeIds: Uint32Array;
  readonly placeGrid: PointGrid;
  /** The index's format version: 2 has no names in other languages. */
  readonly version: number;
  private readonly translation: Database.Statement<[string, string, string], { value: string }> | undefined;
  /** A place name's normal words: every search matches up to 200 names, and folding each costs more than the match. */
  private readonly placeWords = new LeastRecentlyUsed<string, readonly string[]>(NAME_TOKENS_KEPT);
  /** The distinct street and place names by word, read on first use. */
  private streetDirectory: NameDirectory | undefined;
  private placeDirectory: NameDirectory | undefined;

  constructor(readonly extract: string, dir: string) {
    this.db = new Database(path.join(dir, INDEX_FILE), { readonly: true, fileMustExist: true });
    const meta = new Map(this.db.prepare<[], { key: string; value: string }>('SELECT key, value FROM meta').all().map((r) => [r.key, r.value]));
    this.version = Number(meta.get('version'));
    if (meta.get('format') !== INDEX_FORMAT || !READABLE_INDEX_VERSIONS.includes(this.version)) {
      this.db.close();
      throw new Error(`${path.join(dir, INDEX_FILE)} is not a geocoding index of version ${READABLE_INDEX_VERSIONS.join(' or ')} (found ${meta.get('version') ?? 'none'}): re-import the extract`);
    }
    // Version 2 has neither names in other languages nor the `of` column of translated names.
    const of = this.version >= 3 ? 'n.of' : 'NULL';
    const addressSelect = `SELECT a.id, a.street, a.number, a.num, a.unit, a.flats, a.name, a.lon, a.lat, s.name AS street_name, ${ADMIN} FROM addresses a JOIN streets s ON s.id = a.street`;
    const streetColumns = `a.id, a.name_id, a.name, a.norm, a.lon, a.lat, ${ADMIN}`;
    this.streetNameSearch = this.db.prepare(`SELECT n.id, n.norm AS name, ${of} AS of FROM street_name_fts f JOIN street_names n ON n.id = f.rowid WHERE street_name_fts MATCH ? ORDER BY f.rank LIMIT ?`);
    // Unranked: FTS5's rank would count every row of the index holding each word (area-choice.ts).
    this.streetAreaIds = this.db.prepare<[string, number], number>('SELECT rowid FROM street_area_fts WHERE street_area_fts MATCH ? LIMIT ?').pluck();
    this.streetById = this.db.prepare(`SELECT ${streetColumns} FROM streets a WHERE a.id = ?`);
    this.streetsNear = this.db.prepare(`SELECT ${streetColumns} FROM streets a WHERE a.name_id = @id ${NEAREST_FIRST}`);
    this.addressAt = this.db.prepare(`${addressSelect} WHERE a.street = ? AND a.number = ?`);
    this.numberedFrom = this.db.prepare(`${addressSelect} WHERE a.street = ? AND a.number >= ? AND a.number < ? ORDER BY a.num LIMIT ?`);
    this.below = this.db.prepare(`${addressSelect} WHERE a.street = ? AND a.num < ? ORDER BY a.num DESC LIMIT 1`);
    this.above = this.db.prepare(`${addressSelect} WHERE a.street = ? AND a.num > ? ORDER BY a.num ASC LIMIT 1`);
    this.interpolationsOf = this.db.prepare('SELECT first, last, step, coords FROM interpolations WHERE street = ?');
    const placeColumns = `a.id, a.name_id, a.name, a.kind, a.number, a.street_name, a.lon, a.lat, ${ADMIN}`;
    this.placeNameSearch = this.db.prepare(`SELECT n.id, n.name, ${of} AS of FROM place_name_fts f JOIN place_names n ON n.id = f.rowid WHERE place_name_fts MATCH ? ORDER BY f.rank LIMIT ?`);
    this.placeAreaIds = this.db.prepare<[string, number], number>('SELECT rowid FROM place_area_fts WHERE place_area_fts MATCH ? LIMIT ?').pluck();
    this.placeRowById = this.db.prepare(`SELECT ${placeColumns} FROM places a WHERE a.id = ?`);
    this.placesNear = this.db.prepare(`SELECT ${placeColumns} FROM places a WHERE a.name_id = @id ${NEAREST_FIRST}`);
    this.areaSearch = this.db.prepare(`SELECT a.id, a.name, a.layer, a.lon, a.lat, ${ADMIN} FROM area_fts f JOIN areas a ON a.id = f.rowid WHERE area_fts MATCH ? ORDER BY f.rank LIMIT ?`);
    this.addressById = this.db.prepare(`${addressSelect} WHERE a.id = ?`);
    this.placeById = this.db.prepare(`SELECT a.id, a.name, a.kind, a.number, a.street_name, a.lon, a.lat, ${ADMIN} FROM places a WHERE a.id = ?`);
    this.translation = this.version >= 3 ? this.db.prepare('SELECT value FROM translations WHERE kind = ? AND name = ? AND lang = ?') : undefined;
    const load = (sql: string): [Uint32Array, PointGrid] => {
      const rows = this.db.prepare<[], { id: number; lon: number; lat: number }>(sql).all();
      const ids = Uint32Array.from(rows, (r) => r.id);
      return [ids, new PointGrid(Float64Array.from(rows, (r) => r.lon), Float64Array.from(rows, (r) => r.lat), 0.002)];
    };
    [this.addressIds, this.addressGrid] = load('SELECT id, lon, lat FROM addresses');
    [this.placeIds, this.placeGrid] = load('SELECT id, lon, lat FROM places');
  }

  /** Distinct street names matching an FTS query (normal forms), best first. */
  streetNames(match: string): NameRow[] {
    return this.streetNameSearch.all(match, FTS_LIMIT);
  }

  /**
   * Distinct street names (normal forms) that words may match (name-directory.ts), in a fixed order;
   * undefined when too many to try, then streetNames(ftsAny(...)) answers.
   */
  streetNamesFor(words: readonly string[], lastIsPrefix: boolean): NameRow[] | undefined {
    this.streetDirectory ??= new NameDirectory(
      this.db.prepare<[], NameRow>(`SELECT id, norm AS name, ${this.version >= 3 ? 'of' : 'NULL'} AS of FROM street_names`).all().map((r) => ({ ...r, words: r.name.split(' ') })),
      'street',
      DIRECTORY_CANDIDATES,
    );
    return this.streetDirectory.candidates(words, lastIsPrefix);
  }

  /** Distinct place names (as written) that words may match, as streetNamesFor. */
  placeNamesFor(words: readonly string[], lastIsPrefix: boolean): NameRow[] | undefined {
    this.placeDirectory ??= new NameDirectory(
      this.db.prepare<[], NameRow>(`SELECT id, name, ${this.version >= 3 ? 'of' : 'NULL'} AS of FROM place_names`).all().map((r) => ({ ...r, words: nameTokens(r.name) })),
      'place',
      DIRECTORY_CANDIDATES,
    );
    return this.placeDirectory.candidates(words, lastIsPrefix);
  }

  /** Streets bearing this name (an id from streetNames), in the towns the choice prefers. */
  streetsNamed(nameId: number, choice: RowChoice): StreetRow[] {
    return this.rowsOf(nameId, choice, { ids: this.streetAreaIds, row: this.streetById }, this.streetsNear);
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

  /** Distinct POI names (as written) matching an FTS query, best first. */
  placeNames(match: string): NameRow[] {
    return this.placeNameSearch.all(match, FTS_LIMIT);
  }

  /** The normal words of a place name as placeNames answers it (as written). */
  placeNameTokens(written: string): readonly string[] {
    let words = this.placeWords.get(written);
    if (words === undefined) {
      words = nameTokens(written);
      this.placeWords.set(written, words);
    }
    return words;
  }

  /** POIs bearing this name (an id from placeNames), in the towns the choice prefers. */
  placesNamed(nameId: number, choice: RowChoice): PlaceRow[] {
    return this.rowsOf(nameId, choice, { ids: this.placeAreaIds, row: this.placeRowById }, this.placesNear);
  }

  /**
   * A name's rows whose area holds the most of the query's town words (area-choice.ts), then its rows
   * nearest the query's point (or, with neither, or no row agreeing, a few in a fixed order). Each row
   * once; at most ROWS_BY_AREA + ROWS_BY_NEARNESS.
   */
  private rowsOf<R extends { id: number }>(
    id: number,
    choice: RowChoice,
    byArea: { ids: Database.Statement<[string, number], number>; row: Database.Statement<[number], R> },
    near: Database.Statement<[NearParams], R>,
  ): R[] {
    const out: R[] = [];
    const seen = new Set<number>();
    const take = (rows: R[]): void => {
      for (const r of rows) {
        if (seen.has(r.id)) continue;
        seen.add(r.id);
        out.push(r);
      }
    };
    const words = [...new Set(choice.areaWords.filter((w) => w !== ''))];
    if (words.length > 0) {
      const key = `"${nameKey(id)}"`;
      const held = words.map((w) => byArea.ids.all(`${key} AND "${w.replace(/"/g, '""')}"`, AREA_ROWS_READ));
      take(rowsHoldingMost(held, ROWS_BY_AREA).map((rowId) => byArea.row.get(rowId)!));
    }
    // Without a point the order is only a fixed one (by latitude from the equator).
    const [lon, lat] = choice.near ?? [0, 0];
    const kx = Math.cos((lat * Math.PI) / 180);
    if (choice.near !== undefined || out.length === 0) take(near.all({ id, lon, lat, kx, limit: ROWS_BY_NEARNESS }));
    return out;
  }

  /** A name in `lang` (kind 'street': by normal form; 'place', 'area': as written), if the map gives one. */
  translate(kind: TranslationKind, name: string, lang: string): string | undefined {
    return this.translation?.get(kind, name, lang)?.value;
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
 * sits there), so "wolf stret" reaches "wolfe street"; a one-letter particle before a word (what an
 * apostrophe split: "o dnell") by itself, so "O'Dnell" reaches "O'Donnell". The matcher then decides.
 */
export function ftsTypos(words: readonly string[]): string | undefined {
  const terms = new Set<string>();
  words.forEach((w, i) => {
    if (w.length >= 4 && !/\d/.test(w)) terms.add(`"${w.slice(0, 3).replace(/"/g, '""')}"*`);
    else if (/^\p{L}$/u.test(w) && /^\p{L}/u.test(words[i + 1] ?? '')) terms.add(`"${w}"`);
  });
  return terms.size === 0 ? undefined : [...terms].join(' OR ');
}
