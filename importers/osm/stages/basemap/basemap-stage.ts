// The base map stage of `waymark data import`: water, parks, woods, buildings, waterways and names for
// the dashboard's map, written to `<extract>/basemap/basemap.bin` (core/formats/basemap/). Closed ways
// and multipolygon relations make the filled shapes, waterway and coastline ways the lines, place nodes
// and named areas and major roads the labels. Memory: the kept shapes in typed lists (coordinates as
// 1e-7 degree integers) and the node lists of multipolygon member ways until `finish`.
import type { ImportStage, NodeCoordinates, OsmNode, OsmRelation, OsmTags, OsmWay, StageContext, StageSummary } from '../../stage';
import { BasemapWriter } from '../../../../core/formats/basemap/basemap-file';
import { BUILDING, COORD_SCALE, LEVELS, SHAPE_KINDS, WATERWAY, gridOver } from '../../../../core/formats/basemap/basemap-layout';
import { areaKindOf, labelCode, placeLabelOf, roadLabelZoomOf, shapeCode, waterwayZoomOf } from './basemap-tags';
import { CollectedLabels, CollectedShapes } from './collected-features';
import { ringsOfWays } from './multipolygon-rings';
import { coastlineChains } from './coastline-chains';
import { seaPolygons } from './sea-polygons';
import { writeLevel } from './level-cells';

/** A shape is drawn from the zoom at which it spans this many pixels. */
const MIN_PIXELS = 3;
/** Buildings from this zoom only: below it a city's buildings are a grey mass costing megabytes. */
const BUILDING_ZOOM = 15;
/** A water or park name is written once its area spans this many pixels. */
const NAMED_AREA_PIXELS = 60;
const WATER = shapeCode('water');
const PARK = shapeCode('park');
const NO_NAME: OsmTags = {};

interface PendingRelation {
  kind: number;
  tags: OsmTags;
  outer: number[];
  inner: number[];
}

export class BasemapStage implements ImportStage {
  readonly name = 'basemap';
  private readonly shapes = new CollectedShapes();
  private readonly labels = new CollectedLabels();
  private readonly relations: PendingRelation[] = [];
  private readonly wantedWays = new Set<number>();
  private readonly memberWays = new Map<number, Float64Array>();
  /** Node ids of natural=coastline ways, in their own direction (land on the left), until `finish`. */
  private readonly coastWays: Float64Array[] = [];
  private west = Infinity;
  private south = Infinity;
  private east = -Infinity;
  private north = -Infinity;

  relation(relation: OsmRelation): void {
    if (relation.tags.type !== 'multipolygon') return;
    const kind = areaKindOf(relation.tags);
    if (kind === undefined) return;
    const outer: number[] = [];
    const inner: number[] = [];
    for (const m of relation.members) {
      if (m.type !== 'way') continue;
      (m.role === 'inner' ? inner : outer).push(m.ref);
      this.wantedWays.add(m.ref);
    }
    this.relations.push({ kind: shapeCode(kind), tags: relation.tags, outer, inner });
  }

  node(node: OsmNode): void {
    if (node.tags === null || node.tags.place === undefined) return;
    const label = placeLabelOf(node.tags);
    if (label) this.labels.add(labelCode(label.kind), label.minZoom, Math.round(node.lon * COORD_SCALE), Math.round(node.lat * COORD_SCALE), node.tags.name);
  }

  way(way: OsmWay, nodes: NodeCoordinates): void {
    const tags = way.tags;
    if (this.wantedWays.has(way.id)) this.memberWays.set(way.id, Float64Array.from(way.refs));
    if (tags.natural === 'coastline') this.coastWays.push(Float64Array.from(way.refs));
    const closed = way.refs.length >= 4 && way.refs[0] === way.refs[way.refs.length - 1];
    const area = closed ? areaKindOf(tags) : undefined;
    const waterwayZoom = area === undefined ? waterwayZoomOf(tags) : undefined;
    const roadZoom = roadLabelZoomOf(tags);
    const placeLabel = closed && tags.place !== undefined ? placeLabelOf(tags) : undefined;
    if (area === undefined && waterwayZoom === undefined && roadZoom === undefined && placeLabel === undefined) return;
    const coords = coordsOf(way.refs, nodes, closed);
    if (coords.length < 4) return;
    if (area !== undefined && coords.length >= 6) this.addArea(shapeCode(area), tags, [coords]);
    if (waterwayZoom !== undefined) this.addShape(WATERWAY, waterwayZoom, [coords]);
    if (roadZoom !== undefined) {
      const mid = 2 * Math.floor(coords.length / 4);
      this.labels.add(labelCode('road'), roadZoom, coords[mid], coords[mid + 1], tags.name, labelAngleAt(coords, mid));
    }
    if (placeLabel) {
      const [lon, lat] = centreOf(coords);
      this.labels.add(labelCode(placeLabel.kind), placeLabel.minZoom, lon, lat, tags.name);
    }
  }

  private addShape(kind: number, minZoom: number, parts: number[][]): void {
    for (const p of parts) {
      for (let k = 0; k < p.length; k += 2) {
        if (p[k] < this.west) this.west = p[k];
        if (p[k] > this.east) this.east = p[k];
        if (p[k + 1] < this.south) this.south = p[k + 1];
        if (p[k + 1] > this.north) this.north = p[k + 1];
      }
    }
    this.shapes.add(kind, minZoom, parts);
  }

  /**
   * A filled shape (its `outers` outer rings first, the largest first, then its holes), its least zoom from
   * its size, and its name as a label when it has one. Outer rings are turned counter-clockwise and holes
   * clockwise: the dashboard fills all shapes of a kind as one path with the non-zero rule, so overlapping
   * parks stay filled and holes stay open whatever way the mappers drew them.
   */
  private addArea(kind: number, tags: OsmTags, rings: number[][], outers = rings.length): void {
    rings.forEach((ring, k) => orient(ring, k < outers));
    const outer = rings[0];
    let west = Infinity, south = Infinity, east = -Infinity, north = -Infinity;
    for (let k = 0; k < outer.length; k += 2) {
      west = Math.min(west, outer[k]);
      east = Math.max(east, outer[k]);
      south = Math.min(south, outer[k + 1]);
      north = Math.max(north, outer[k + 1]);
    }
    const minZoom = zoomSpanning(MIN_PIXELS, west, south, east, north);
    this.addShape(kind, kind === BUILDING ? Math.max(BUILDING_ZOOM, minZoom) : minZoom, rings);
    if ((kind === WATER || kind === PARK) && tags.name) {
      const [lon, lat] = centreOf(outer);
      this.labels.add(labelCode(kind === WATER ? 'water' : 'park'), Math.max(12, zoomSpanning(NAMED_AREA_PIXELS, west, south, east, north)), lon, lat, tags.name);
    }
  }

  async finish(ctx: StageContext): Promise<StageSummary> {
    ctx.progress('multipolygons', 0, this.relations.length);
    let multipolygons = 0;
    this.relations.forEach((r, k) => {
      if (k % 1000 === 0) ctx.progress('multipolygons', k, this.relations.length);
      const ringsOf = (ids: number[]): number[][] => ringsOfWays(ids.map((id) => this.memberWays.get(id)).filter((w): w is Float64Array => w !== undefined))
        .map((ring) => coordsOf(ring, ctx.nodes, true))
        .filter((c) => c.length >= 6);
      const outers = ringsOf(r.outer).sort((a, b) => b.length - a.length);
      if (outers.length === 0) return;
      // Holes are filled even-odd with their outer rings; the largest outer names the area.
      this.addArea(r.kind, r.tags, [...outers, ...ringsOf(r.inner)], outers.length);
      multipolygons++;
    });
    this.memberWays.clear();
    ctx.progress('multipolygons', this.relations.length, this.relations.length);

    // The sea: OSM gives it only as coastline ways, so it is made here inside the extract's box.
    ctx.progress('sea from coastlines', 0, this.coastWays.length);
    const box = ctx.bounds.map((v) => Math.round(v * COORD_SCALE)) as [number, number, number, number];
    const sea = seaPolygons(coastlineChains(this.coastWays).map((ids) => coordsOf(ids, ctx.nodes, false)), box);
    for (const rings of sea.polygons) this.addArea(WATER, NO_NAME, rings, 1);
    ctx.progress('sea from coastlines', this.coastWays.length, this.coastWays.length);
    this.coastWays.length = 0;

    const counts: Record<string, number> = {};
    for (let i = 0; i < this.shapes.size; i++) {
      const name = SHAPE_KINDS[this.shapes.kind.get(i)];
      counts[name] = (counts[name] ?? 0) + 1;
    }
    const bbox: [number, number, number, number] = this.shapes.size > 0
      ? [this.west / COORD_SCALE, this.south / COORD_SCALE, this.east / COORD_SCALE, this.north / COORD_SCALE]
      : [0, 0, 0, 0];
    const writer = new BasemapWriter(ctx.dir);
    const byLevel: Record<string, number> = {};
    for (const spec of LEVELS) {
      const step = `cells, ${spec.name} level`;
      const isBuildings = spec.name === 'buildings';
      const level = writeLevel(writer, {
        grid: gridOver(spec, bbox),
        simplifyMetres: spec.simplifyMetres,
        shapes: this.shapes,
        labels: this.labels,
        takesShape: (i) => (this.shapes.kind.get(i) === BUILDING) === isBuildings && this.shapes.minZoom.get(i) <= spec.maxZoom,
        takesLabel: (i) => !isBuildings && this.labels.minZoom.get(i) <= spec.maxZoom,
        progress: (done, total) => ctx.progress(step, done, total),
      });
      byLevel[`${spec.name} pieces`] = level.pieces;
      byLevel[`${spec.name} points`] = level.points;
    }
    const bytes = writer.finish({ extract: ctx.extract, bbox, counts: { ...counts, labels: this.labels.size, multipolygons } });
    const seaCounts = {
      'sea polygons': sea.polygons.length,
      ...(sea.carriedEnds > 0 ? { 'coastline ends carried to the edge': sea.carriedEnds } : {}),
      ...(sea.openEnds > 0 ? { 'coastline ends inside the box (no sea made)': sea.openEnds } : {}),
    };
    return { ...counts, labels: this.labels.size, multipolygons, ...seaCounts, ...byLevel, bytes };
  }
}

/** Flat 1e-7 degree coordinates of a way's nodes (those the extract holds); a ring leaves its repeated last node out. */
function coordsOf(refs: ArrayLike<number>, nodes: NodeCoordinates, ring: boolean): number[] {
  const out: number[] = [];
  const n = ring ? refs.length - 1 : refs.length;
  for (let k = 0; k < n; k++) {
    const at = nodes.indexOf(refs[k]);
    if (at < 0) continue;
    out.push(Math.round(nodes.lonAt(at) * COORD_SCALE), Math.round(nodes.latAt(at) * COORD_SCALE));
  }
  return out;
}

/** Reverses a flat ring in place unless it runs counter-clockwise (`ccw`) or clockwise (not `ccw`). */
function orient(ring: number[], ccw: boolean): void {
  let twiceArea = 0;
  const x0 = ring[0], y0 = ring[1];
  for (let i = 0, j = ring.length - 2; i < ring.length; j = i, i += 2) {
    twiceArea += (ring[j] - x0) * (ring[i + 1] - y0) - (ring[i] - x0) * (ring[j + 1] - y0);
  }
  if (twiceArea > 0 !== ccw) {
    for (let a = 0, b = ring.length - 2; a < b; a += 2, b -= 2) {
      const x = ring[a], y = ring[a + 1];
      ring[a] = ring[b];
      ring[a + 1] = ring[b + 1];
      ring[b] = x;
      ring[b + 1] = y;
    }
  }
}

/** The mean of a ring's points: inside for the compact shapes labels are written on, cheap for all. */
function centreOf(coords: number[]): [number, number] {
  let x = 0, y = 0;
  const n = coords.length / 2;
  for (let k = 0; k < coords.length; k += 2) {
    x += coords[k];
    y += coords[k + 1];
  }
  return [Math.round(x / n), Math.round(y / n)];
}

/** Least zoom (0–24) at which a box of 1e-7 degrees spans `pixels` pixels on a 256-pixel Web Mercator tile. */
function zoomSpanning(pixels: number, west: number, south: number, east: number, north: number): number {
  const cosLat = Math.cos((((south + north) / 2) / COORD_SCALE) * Math.PI / 180);
  const spanDeg = Math.max((east - west) / COORD_SCALE, (north - south) / COORD_SCALE / Math.max(cosLat, 0.01));
  const perZoom0 = (spanDeg * 256) / 360;
  if (perZoom0 <= 0) return 24;
  return Math.max(0, Math.min(24, Math.ceil(Math.log2(pixels / perZoom0))));
}

/**
 * The direction of a line at its point `at` (an index into flat [lon, lat, …]), as CellLabel.angle: from
 * the point before to the point after, so the name lies along the road where it is written. Mercator keeps
 * angles, so the longitude step shrinks by the cosine of the latitude, as on the map.
 */
export function labelAngleAt(coords: ArrayLike<number>, at: number): number {
  const a = Math.max(0, at - 2), b = Math.min(coords.length - 2, at + 2);
  const dx = (coords[b] - coords[a]) * Math.cos(((coords[at + 1] / COORD_SCALE) * Math.PI) / 180);
  const dy = coords[b + 1] - coords[a + 1];
  if (dx === 0 && dy === 0) return 0;
  // Clockwise from east as drawn (north is up, the screen's y grows down), turned to read left to right.
  let degrees = (Math.atan2(-dy, dx) * 180) / Math.PI;
  if (degrees > 90) degrees -= 180;
  else if (degrees <= -90) degrees += 180;
  return Math.round(degrees * 10) || 0; // never -0
}
