// Writes the collected features into the extract's geocoding index (index-schema.ts): admin fields
// from the boundaries each point lies in (address tags win where present), streets grouped by
// normalised name and town, numbers attached to their street, POIs and areas with their FTS rows, and
// the names in other languages (name:xx) with the translated street and place names searchable too.
import Database from 'better-sqlite3';
import path from 'node:path';
import { houseNumberValue, nameTokens, normalizeHouseNumber, normalizeName } from '../../../../core/geocoding/normalize';
import type { AdminContext } from './admin-context';
import type { AdminBoundaries } from './admin-boundaries';
import type { AddressPoint, InterpolationLine, NamedPlace, NamedStreet } from './features';
import { ADMIN_COLUMNS, INDEX_FILE, INDEX_FORMAT, INDEX_SCHEMA, INDEX_VERSION, nameKey, type TranslationKind } from '../../../../core/formats/geocoding-index';
import { mergeFtsTable } from './fts-merge';
import { mergeTranslations } from './name-translations';
import { SameNameGrid } from './same-name-grid';
import { middleVertex } from './way-geometry';

export interface IndexInput {
  addresses: AddressPoint[];
  streets: NamedStreet[];
  places: NamedPlace[];
  interpolations: InterpolationLine[];
  boundaries: AdminBoundaries;
  progress(step: string, done: number, total?: number): void;
}

export interface IndexCounts {
  addresses: number;
  streets: number;
  places: number;
  interpolations: number;
  areas: number;
  /** Names in another language (one per name and language). */
  translations: number;
}

/** A highway joins the address street of the same name within this distance. */
const STREET_JOIN_METERS = 3000;
/**
 * A street is the addresses of one name in one town and one cell of this size (~10 km): without the
 * cell, the town-less "Main Street"s of a state (no addr:city, no city boundary) would be one street
 * with its centre in the middle of the state and the numbers of all of them.
 */
const GROUP_CELL_DEGREES = 0.1;

function groupKey(norm: string, city: string | undefined, lon: number, lat: number): string {
  return `${norm}|${city ?? ''}|${Math.floor(lon / GROUP_CELL_DEGREES)},${Math.floor(lat / GROUP_CELL_DEGREES)}`;
}

interface StreetGroup {
  id: number;
  nameId: number;
  name: string;
  norm: string;
  lon: number;
  lat: number;
  count: number;
  admin: AdminContext;
  /** Postal codes of the street's addresses, for the area search (the group itself has none). */
  postalCodes: Set<string>;
}

/** Ids for distinct names, in order of first use. */
class NameIds {
  readonly ids = new Map<string, number>();

  idOf(name: string): number {
    let id = this.ids.get(name);
    if (id === undefined) {
      id = this.ids.size + 1;
      this.ids.set(name, id);
    }
    return id;
  }
}

/** A row's area text: its name key, then the words of its towns and its postal codes. */
function areaText(nameId: number, admin: AdminContext, postalCodes: Iterable<string>, forms: NormalForms): string {
  const words = [nameKey(nameId)];
  for (const v of [admin.city, admin.borough, admin.neighborhood, admin.county]) if (v) words.push(...forms.tokens(v));
  for (const p of postalCodes) words.push(p.toLowerCase());
  return words.join(' ');
}

/**
 * normalizeName and the house number's forms, once per distinct text: a region's addresses name a few
 * thousand streets and numbers over and over (Baltimore ×4×4: 22 k addresses), and folding each
 * again was a third of the geocoding stage's finish (profile).
 */
class NormalForms {
  private readonly names = new Map<string, string>();
  private readonly numbers = new Map<string, { norm: string; value: number }>();
  private readonly tokenLists = new Map<string, readonly string[]>();

  tokens(text: string): readonly string[] {
    let tokens = this.tokenLists.get(text);
    if (tokens === undefined) this.tokenLists.set(text, (tokens = nameTokens(text)));
    return tokens;
  }

  name(text: string): string {
    let norm = this.names.get(text);
    if (norm === undefined) this.names.set(text, (norm = normalizeName(text)));
    return norm;
  }

  houseNumber(text: string): { norm: string; value: number } {
    let forms = this.numbers.get(text);
    if (forms === undefined) this.numbers.set(text, (forms = { norm: normalizeHouseNumber(text), value: houseNumberValue(text) }));
    return forms;
  }
}

export function writeGeocodingIndex(dir: string, input: IndexInput): IndexCounts {
  const forms = new NormalForms();
  const db = new Database(path.join(dir, INDEX_FILE));
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.exec(INDEX_SCHEMA);
  const counts: IndexCounts = { addresses: 0, streets: 0, places: 0, interpolations: 0, areas: 0, translations: 0 };
  const adminValues = (a: AdminContext): Array<string | null> => [
    a.countryCode ?? null, a.country ?? null, a.state ?? null, a.stateCode ?? null, a.county ?? null,
    a.city ?? null, a.borough ?? null, a.neighborhood ?? null, a.postalCode ?? null,
  ];
  const adminPlaceholders = ADMIN_COLUMNS.map(() => '?').join(', ');
  const adminNames = ADMIN_COLUMNS.join(', ');

  db.transaction(() => {
    // Streets from the addresses that name them, grouped per town.
    const groups = new Map<string, StreetGroup>();
    const byNorm = new Map<string, StreetGroup[]>();
    const streetNames = new NameIds();
    const addressRows: Array<{ point: AddressPoint; group: StreetGroup; admin: AdminContext }> = [];
    let done = 0;
    for (const point of input.addresses) {
      const admin = withTags(input.boundaries.contextAt(point.lon, point.lat), point);
      const norm = forms.name(point.street);
      if (norm === '') continue;
      const key = groupKey(norm, admin.city, point.lon, point.lat);
      let group = groups.get(key);
      if (group === undefined) {
        group = { id: groups.size + 1, nameId: streetNames.idOf(norm), name: point.street, norm, lon: 0, lat: 0, count: 0, admin: { ...admin, postalCode: undefined }, postalCodes: new Set() };
        groups.set(key, group);
        const same = byNorm.get(norm);
        if (same) same.push(group);
        else byNorm.set(norm, [group]);
      }
      if (admin.postalCode !== undefined) group.postalCodes.add(admin.postalCode);
      group.lon += point.lon;
      group.lat += point.lat;
      group.count++;
      addressRows.push({ point, group, admin });
      if (++done % 10_000 === 0) input.progress('admin lookup', done, input.addresses.length);
    }
    const nearby = new SameNameGrid<StreetGroup>();
    for (const g of groups.values()) {
      g.lon /= g.count;
      g.lat /= g.count;
      nearby.add(g.norm, g);
    }
    // Highways: a street with addresses takes its highway's vertex as its point; others become streets.
    let highways = 0;
    for (const street of input.streets) {
      if (++highways % 5_000 === 0) input.progress('streets of the highways', highways, input.streets.length);
      const norm = forms.name(street.name);
      if (norm === '') continue;
      const [lon, lat] = middleVertex(street.coords);
      const near = nearby.findNear(norm, lon, lat, STREET_JOIN_METERS, (g) => roughMeters(g.lon, g.lat, lon, lat) < STREET_JOIN_METERS);
      if (near !== undefined) continue;
      const admin = input.boundaries.contextAt(lon, lat);
      const key = groupKey(norm, admin.city, lon, lat);
      if (groups.has(key)) continue;
      const group: StreetGroup = { id: groups.size + 1, nameId: streetNames.idOf(norm), name: street.name, norm, lon, lat, count: 0, admin, postalCodes: new Set() };
      groups.set(key, group);
      nearby.add(norm, group);
      const same = byNorm.get(norm);
      if (same) same.push(group);
      else byNorm.set(norm, [group]);
    }

    const insertTranslation = db.prepare('INSERT OR IGNORE INTO translations (kind, name, lang, value) VALUES (?, ?, ?, ?)');
    const writeTranslations = (kind: TranslationKind, byName: Map<string, Record<string, string>>): void => {
      for (const [name, names] of byName) {
        for (const [lang, value] of Object.entries(names)) counts.translations += insertTranslation.run(kind, name, lang, value).changes;
      }
    };

    // A highway's name:xx names its street (by normal form); each is also a name the street is found by.
    const streetTranslations = new Map<string, Record<string, string>>();
    for (const street of input.streets) if (street.names !== undefined) mergeTranslations(streetTranslations, forms.name(street.name), street.names);
    const insertStreetName = db.prepare('INSERT INTO street_names (id, norm, of) VALUES (?, ?, ?)');
    const insertStreetNameFts = db.prepare('INSERT INTO street_name_fts (rowid, norm) VALUES (?, ?)');
    for (const [norm, id] of streetNames.ids) {
      insertStreetName.run(id, norm, null);
      insertStreetNameFts.run(id, norm);
    }
    const streetAliases = new Set<string>();
    for (const [norm, names] of streetTranslations) {
      const of = streetNames.ids.get(norm);
      if (of === undefined) continue;
      for (const value of Object.values(names)) {
        const alias = forms.name(value);
        if (alias === '' || streetNames.ids.has(alias) || streetAliases.has(`${alias}|${of}`)) continue;
        streetAliases.add(`${alias}|${of}`);
        const id = streetNames.ids.size + streetAliases.size;
        insertStreetName.run(id, alias, of);
        insertStreetNameFts.run(id, alias);
      }
    }
    writeTranslations('street', streetTranslations);
    const insertStreet = db.prepare(`INSERT INTO streets (id, name_id, name, norm, lon, lat, ${adminNames}) VALUES (?, ?, ?, ?, ?, ?, ${adminPlaceholders})`);
    const insertStreetArea = db.prepare('INSERT INTO street_area_fts (rowid, area) VALUES (?, ?)');
    for (const g of groups.values()) {
      insertStreet.run(g.id, g.nameId, g.name, g.norm, g.lon, g.lat, ...adminValues(g.admin));
      insertStreetArea.run(g.id, areaText(g.nameId, g.admin, g.postalCodes, forms));
      if (++counts.streets % 10_000 === 0) input.progress('streets', counts.streets, groups.size);
    }

    const insertAddress = db.prepare(
      `INSERT INTO addresses (street, number, num, unit, flats, name, lon, lat, ${adminNames}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ${adminPlaceholders})`,
    );
    const postal = new Map<string, { lon: number; lat: number; n: number; admin: AdminContext }>();
    for (const { point, group, admin } of addressRows) {
      const { norm: number, value: num } = forms.houseNumber(point.number);
      insertAddress.run(
        group.id, number, Number.isNaN(num) ? null : num, point.unit ?? null, point.flats ?? null,
        point.name ?? null, point.lon, point.lat, ...adminValues(admin),
      );
      if (++counts.addresses % 20_000 === 0) input.progress('addresses', counts.addresses, addressRows.length);
      if (admin.postalCode !== undefined) {
        const key = `${admin.countryCode ?? ''}|${admin.postalCode}`;
        const p = postal.get(key) ?? { lon: 0, lat: 0, n: 0, admin: { ...admin, neighborhood: undefined } };
        p.lon += point.lon;
        p.lat += point.lat;
        p.n++;
        postal.set(key, p);
      }
    }
    input.progress('addresses', counts.addresses, counts.addresses);

    const insertInterpolation = db.prepare('INSERT INTO interpolations (street, first, last, step, coords) VALUES (?, ?, ?, ?, ?)');
    for (const line of input.interpolations) {
      const norm = line.street === undefined ? '' : forms.name(line.street);
      const [lon, lat] = [line.coords[0], line.coords[1]];
      const group = groups.get(groupKey(norm, line.city, lon, lat)) ?? nearest(byNorm.get(norm) ?? [], lon, lat);
      const first = houseNumberValue(line.firstNumber);
      const last = houseNumberValue(line.lastNumber);
      const step = line.scheme === 'odd' || line.scheme === 'even' ? 2 : Number(line.scheme) > 0 ? Math.floor(Number(line.scheme)) : 1;
      if (group === undefined || Number.isNaN(first) || Number.isNaN(last) || first === last) continue;
      insertInterpolation.run(group.id, first, last, step, JSON.stringify(Array.from(line.coords)));
      counts.interpolations++;
    }

    const insertPlace = db.prepare(`INSERT INTO places (name_id, name, kind, number, street_name, lon, lat, ${adminNames}) VALUES (?, ?, ?, ?, ?, ?, ?, ${adminPlaceholders})`);
    const insertPlaceArea = db.prepare('INSERT INTO place_area_fts (rowid, area) VALUES (?, ?)');
    const placeNames = new NameIds();
    const placeTranslations = new Map<string, Record<string, string>>();
    for (const place of input.places) {
      const norm = forms.name(place.name);
      if (norm === '') continue;
      const nameId = placeNames.idOf(place.name);
      mergeTranslations(placeTranslations, place.name, place.names);
      const admin = withTags(input.boundaries.contextAt(place.lon, place.lat), place);
      const { lastInsertRowid } = insertPlace.run(nameId, place.name, place.kind, place.number ?? null, place.street ?? null, place.lon, place.lat, ...adminValues(admin));
      insertPlaceArea.run(lastInsertRowid, areaText(nameId, admin, admin.postalCode === undefined ? [] : [admin.postalCode], forms));
      if (++counts.places % 20_000 === 0) input.progress('places', counts.places, input.places.length);
    }
    const insertPlaceName = db.prepare('INSERT INTO place_names (id, name, of) VALUES (?, ?, ?)');
    const insertPlaceNameFts = db.prepare('INSERT INTO place_name_fts (rowid, norm) VALUES (?, ?)');
    for (const [name, id] of placeNames.ids) {
      insertPlaceName.run(id, name, null);
      insertPlaceNameFts.run(id, forms.name(name));
    }
    const placeAliases = new Set<string>();
    for (const [name, names] of placeTranslations) {
      const of = placeNames.ids.get(name)!;
      for (const value of Object.values(names)) {
        if (forms.name(value) === '' || placeNames.ids.has(value) || placeAliases.has(`${value}|${of}`)) continue;
        placeAliases.add(`${value}|${of}`);
        const id = placeNames.ids.size + placeAliases.size;
        insertPlaceName.run(id, value, of);
        insertPlaceNameFts.run(id, forms.name(value));
      }
    }
    writeTranslations('place', placeTranslations);
    writeTranslations('area', new Map(input.boundaries.translations().map(([name, names]) => [name, { ...names }])));

    const insertArea = db.prepare(`INSERT INTO areas (name, layer, lon, lat, ${adminNames}) VALUES (?, ?, ?, ?, ${adminPlaceholders})`);
    const insertAreaFts = db.prepare('INSERT INTO area_fts (rowid, norm) VALUES (?, ?)');
    const addArea = (name: string, layer: string, lon: number, lat: number, admin: AdminContext): void => {
      const { lastInsertRowid } = insertArea.run(name, layer, lon, lat, ...adminValues(admin));
      insertAreaFts.run(lastInsertRowid, forms.name(name));
      counts.areas++;
    };
    for (const area of input.boundaries.areas()) {
      const layer = area.field === 'city' || area.field === 'borough' ? 'locality' : area.field === 'neighborhood' ? 'neighborhood' : area.field;
      addArea(area.name, layer, area.lon, area.lat, { ...area.context, [area.field]: area.name });
    }
    for (const p of postal.values()) addArea(p.admin.postalCode!, 'postalCode', p.lon / p.n, p.lat / p.n, p.admin);

    const meta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
    meta.run('format', INDEX_FORMAT);
    meta.run('version', String(INDEX_VERSION));
    meta.run('counts', JSON.stringify(counts));
  })();
  // One b-tree per full-text table, merged a slice at a time so that progress keeps coming.
  const ftsTables = ['street_name_fts', 'street_area_fts', 'place_name_fts', 'place_area_fts', 'area_fts'];
  ftsTables.forEach((t, k) => {
    const phase = `merging the search index ${k + 1} of ${ftsTables.length} (${t})`;
    input.progress(phase, 0);
    mergeFtsTable(db, t, (pages, total) => input.progress(phase, pages, total));
  });
  db.close();
  return counts;
}

/** Address tags override what the boundaries say: they are what the building's owner writes. */
function withTags(admin: AdminContext, tags: { city?: string; postalCode?: string; state?: string; countryCode?: string }): AdminContext {
  const out = { ...admin };
  if (tags.city !== undefined) out.city = tags.city;
  if (tags.postalCode !== undefined) out.postalCode = tags.postalCode;
  if (tags.countryCode !== undefined) out.countryCode = tags.countryCode;
  if (tags.state !== undefined && /^[A-Za-z]{2}$/.test(tags.state)) out.stateCode = tags.state.toUpperCase();
  return out;
}

function nearest(groups: readonly StreetGroup[], lon: number, lat: number): StreetGroup | undefined {
  let best: StreetGroup | undefined;
  let bestMeters = Infinity;
  for (const g of groups) {
    const m = roughMeters(g.lon, g.lat, lon, lat);
    if (m < bestMeters) [best, bestMeters] = [g, m];
  }
  return best;
}

function roughMeters(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const kx = 111_320 * Math.cos((lat1 * Math.PI) / 180);
  return Math.hypot((lon2 - lon1) * kx, (lat2 - lat1) * 110_574);
}
