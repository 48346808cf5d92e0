// Administrative boundaries (`boundary=administrative` relations) turned into polygons, so that every
// indexed point learns its country, state, county, city and neighbourhood even without `addr:city`.
// Relations arrive first and name their member ways; the ways' node coordinates are copied as they
// pass; `build()` joins them end to end into rings. A boundary cut by the extract's edge leaves open
// rings and is skipped (the summary counts them): its points fall back to the address tags.
import { BandedPolygon } from '../../../../core/geo/banded-polygon';
import { readTranslations, type Translations } from './name-translations';
import type { NodeCoordinates, OsmRelation, OsmWay } from '../../stage';
import type { AdminContext } from './admin-context';
import { adminFieldOf, NYC_BOROUGH_OF_COUNTY } from './admin-levels';

interface Boundary {
  /** name:en where mapped (the answers' default), else the name. */
  name: string;
  /** The name in Radar's other languages (name:xx), for answers asked in one. */
  names?: Translations;
  level: number;
  /** ISO 3166-1 alpha-2 (level 2) or the ISO 3166-2 code ("US-NY"). */
  iso?: string;
  wayIds: number[];
  polygon?: BandedPolygon;
}

interface WayLine {
  first: number;
  last: number;
  coords: number[];
}

export class AdminBoundaries {
  private readonly boundaries: Boundary[] = [];
  private readonly wanted = new Set<number>();
  private readonly lines = new Map<number, WayLine>();
  private built: Boundary[] = [];
  private defaultCountry: string | undefined;
  openRings = 0;

  relation(rel: OsmRelation): void {
    const t = rel.tags;
    if (t.boundary !== 'administrative' || t.name === undefined) return;
    const level = Number(t.admin_level);
    if (!Number.isInteger(level) || level < 2 || level > 11) return;
    const wayIds = rel.members.filter((m) => m.type === 'way' && m.role !== 'subarea' && m.role !== 'label').map((m) => m.ref);
    for (const id of wayIds) this.wanted.add(id);
    const iso = t['ISO3166-1:alpha2'] ?? t['ISO3166-1'] ?? t['ISO3166-2'];
    const name = t['name:en'] ?? t.name;
    this.boundaries.push({ name, names: readTranslations(t, name), level, iso: iso?.toUpperCase(), wayIds });
  }

  way(way: OsmWay, nodes: NodeCoordinates): void {
    if (!this.wanted.has(way.id)) return;
    const coords: number[] = [];
    for (let i = 0; i < way.refs.length; i++) {
      const at = nodes.indexOf(way.refs[i]);
      if (at < 0) return; // a node outside the extract: the ring cannot close
      coords.push(nodes.lonAt(at), nodes.latAt(at));
    }
    if (way.refs.length >= 2) this.lines.set(way.id, { first: way.refs[0], last: way.refs[way.refs.length - 1], coords });
  }

  /** Joins rings and prepares polygons; returns how many boundaries are usable. `progress` gets boundaries done and their total. */
  build(progress?: (done: number, total: number) => void): number {
    const countries = new Map<string, number>();
    let done = 0;
    for (const b of this.boundaries) {
      if (++done % 100 === 0) progress?.(done, this.boundaries.length);
      const rings = joinRings(b.wayIds.map((id) => this.lines.get(id)));
      if (rings === undefined) {
        this.openRings++;
        continue;
      }
      b.polygon = new BandedPolygon(rings);
      this.built.push(b);
      const country = b.iso?.slice(0, 2);
      if (country !== undefined) countries.set(country, (countries.get(country) ?? 0) + 1);
    }
    // Most specific last, so deeper levels overwrite shallower ones in contextAt.
    this.built.sort((a, b) => a.level - b.level);
    this.defaultCountry = [...countries.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
    this.lines.clear();
    return this.built.length;
  }

  /** The usable boundaries' names in other languages, by the name the admin fields carry. */
  translations(): Array<[string, Translations]> {
    return this.built.flatMap((b) => (b.names === undefined ? [] : [[b.name, b.names] as [string, Translations]]));
  }

  /** Each usable boundary as a searchable area: its field, name and the centre of its bounding box. */
  areas(): Array<{ name: string; field: string; lon: number; lat: number; context: AdminContext }> {
    return this.built.flatMap((b) => {
      const bb = b.polygon!.bbox;
      const lon = (bb.minX + bb.maxX) / 2;
      const lat = (bb.minY + bb.maxY) / 2;
      const context = this.contextAt(lon, lat);
      const field = adminFieldOf(context.countryCode ?? b.iso?.slice(0, 2), b.level);
      return field === undefined ? [] : [{ name: b.name, field, lon, lat, context }];
    });
  }

  /** Admin fields at a point from the boundaries containing it. */
  contextAt(lng: number, lat: number): AdminContext {
    const out: AdminContext = {};
    const containing = this.built.filter((b) => {
      const bb = b.polygon!.bbox;
      return lng >= bb.minX && lng <= bb.maxX && lat >= bb.minY && lat <= bb.maxY && b.polygon!.contains(lng, lat);
    });
    const country = containing.find((b) => b.level === 2)?.iso ?? containing.find((b) => b.iso !== undefined)?.iso?.slice(0, 2) ?? this.defaultCountry;
    if (country !== undefined) out.countryCode = country.slice(0, 2);
    for (const b of containing) {
      const field = adminFieldOf(out.countryCode, b.level);
      if (field === undefined) continue;
      if (field === 'country') out.country = b.name;
      else if (field === 'state') {
        out.state = b.name;
        if (b.iso !== undefined && b.iso.includes('-')) out.stateCode = b.iso.split('-')[1];
      } else out[field] = b.name;
    }
    if (out.countryCode === 'US' && out.county !== undefined && NYC_BOROUGH_OF_COUNTY[out.county] !== undefined) {
      out.borough = NYC_BOROUGH_OF_COUNTY[out.county];
    }
    return out;
  }
}

/** Joins way lines end to end into closed rings ([lng, lat] pairs); undefined when any stays open. */
function joinRings(lines: Array<WayLine | undefined>): number[][][] | undefined {
  if (lines.length === 0 || lines.some((l) => l === undefined)) return undefined;
  const pending = [...(lines as WayLine[])];
  const rings: number[][][] = [];
  while (pending.length > 0) {
    const start = pending.pop()!;
    const coords = [...start.coords];
    const first = start.first;
    let last = start.last;
    while (last !== first) {
      const i = pending.findIndex((l) => l.first === last || l.last === last);
      if (i < 0) return undefined;
      const next = pending.splice(i, 1)[0];
      if (next.first === last) {
        for (let k = 2; k < next.coords.length; k++) coords.push(next.coords[k]);
        last = next.last;
      } else {
        for (let k = next.coords.length - 4; k >= 0; k -= 2) coords.push(next.coords[k], next.coords[k + 1]);
        last = next.first;
      }
    }
    const ring: number[][] = [];
    for (let k = 0; k < coords.length; k += 2) ring.push([coords[k], coords[k + 1]]);
    if (ring.length >= 4) rings.push(ring);
  }
  return rings;
}
