// The places stage of `waymark data import`: named POIs with a Radar category, from nodes, closed ways
// and multipolygon relations, each with its chain (name-suggestion-index) and outline, written to
// `<extract>/places/places.bin`. Memory: the places themselves, plus the rings of multipolygon outer
// ways and of the buildings that hold a node POI (to give it its building's outline): every node comes
// before the first way, so a building is kept only when a node place lies in its bounding box, not
// every building of a region (millions of them in a state).
import type { LngLat } from '../../../../core/types';
import { polygonCentroid } from '../../../../core/geofence-shape';
import { chainSlug } from './chain-slug';
import { loadBrandIndex, type BrandIndex } from './nsi-brands';
import { placeIdOf, PLACES_FORMAT, PLACES_VERSION, writePlacesFile, type PlaceRecord } from '../../../../core/formats/places/places-file';
import type { ImportStage, NodeCoordinates, OsmNode, OsmRelation, OsmTags, OsmWay, StageContext, StageSummary } from '../../stage';
import { BuildingOutlines } from './building-outlines';
import { placeTagsOf } from './place-tags';

/** Rings longer than this are kept as a place's centre only: the gateway tests rings per update. */
const MAX_OUTLINE_POINTS = 2000;

export interface PlacesStageOptions {
  /** Tests pass a small index; by default the name-suggestion-index package is read at the first entity. */
  brands?: BrandIndex;
}

interface PendingRelation {
  record: PlaceRecord;
  outerWays: number[];
}

export class PlacesStage implements ImportStage {
  readonly name = 'places';
  private brandIndex: BrandIndex | undefined;
  private readonly places: PlaceRecord[] = [];
  /** Node places waiting for a building outline, by index into `places`. */
  private readonly nodePlaces: number[] = [];
  private readonly buildings = new BuildingOutlines();
  private readonly relations: PendingRelation[] = [];
  private readonly wantedWays = new Set<number>();
  private readonly wayRings = new Map<number, LngLat[]>();
  /** Node places by grid cell, made at the first way: which buildings may hold one. */
  private nodePlaceCells: Set<number> | undefined;

  constructor(options: PlacesStageOptions = {}) {
    this.brandIndex = options.brands;
  }

  private get brands(): BrandIndex {
    this.brandIndex ??= loadBrandIndex();
    return this.brandIndex;
  }

  private recordOf(type: 'n' | 'w' | 'r', id: number, tags: OsmTags, lng: number, lat: number): PlaceRecord | undefined {
    const place = placeTagsOf(tags);
    if (!place) return undefined;
    const record: PlaceRecord = { _id: placeIdOf(type, id), name: place.name, lng, lat, categories: place.categories, osm: `${type}${id}` };
    const brand = this.brands.match(tags);
    if (brand) record.chain = { slug: brand.slug, name: brand.name };
    else if (tags.brand !== undefined && chainSlug(tags.brand) !== '') {
      // A brand the index does not know (a local chain): the mapper's word, with a slug by the same rule.
      record.chain = { slug: chainSlug(tags.brand), name: tags.brand.trim() };
    }
    if (place.iata !== undefined) record.iata = place.iata;
    return record;
  }

  relation(relation: OsmRelation): void {
    if (relation.tags.type !== 'multipolygon') return;
    const record = this.recordOf('r', relation.id, relation.tags, NaN, NaN);
    if (!record) return;
    const outerWays = relation.members.filter((m) => m.type === 'way' && (m.role === 'outer' || m.role === '')).map((m) => m.ref);
    for (const id of outerWays) this.wantedWays.add(id);
    this.relations.push({ record, outerWays });
  }

  node(node: OsmNode): void {
    if (node.tags === null) return;
    const record = this.recordOf('n', node.id, node.tags, node.lon, node.lat);
    if (!record) return;
    this.nodePlaces.push(this.places.length);
    this.places.push(record);
  }

  way(way: OsmWay, nodes: NodeCoordinates): void {
    const wanted = this.wantedWays.has(way.id);
    const place = placeTagsOf(way.tags) !== undefined;
    const building = way.tags.building !== undefined && way.tags.building !== 'no';
    if (!wanted && !place && !building) return;
    if (!wanted && !place && !this.mayHoldNodePlace(way.refs, nodes)) return;
    const ring = ringOf(way.refs, nodes);
    if (ring === undefined) return;
    if (wanted) this.wayRings.set(way.id, ring);
    const closed = ring.length >= 4 && ring[0][0] === ring[ring.length - 1][0] && ring[0][1] === ring[ring.length - 1][1];
    if (place) {
      const [lng, lat] = closed ? polygonCentroid(ring) : ring[Math.floor(ring.length / 2)];
      const record = this.recordOf('w', way.id, way.tags, lng, lat);
      if (record) {
        if (closed && ring.length <= MAX_OUTLINE_POINTS) record.outline = ring;
        this.places.push(record);
      }
    } else if (building && closed && ring.length <= MAX_OUTLINE_POINTS) {
      this.buildings.add(ring);
    }
  }

  /** Whether a node place lies in a grid cell the way's bounding box touches (cells of ~100 m). */
  private mayHoldNodePlace(refs: ArrayLike<number>, nodes: NodeCoordinates): boolean {
    if (this.nodePlaceCells === undefined) {
      this.nodePlaceCells = new Set();
      for (const i of this.nodePlaces) this.nodePlaceCells.add(placeCell(Math.floor(this.places[i].lng / PLACE_CELL_DEG), Math.floor(this.places[i].lat / PLACE_CELL_DEG)));
    }
    if (this.nodePlaceCells.size === 0) return false;
    let west = Infinity;
    let south = Infinity;
    let east = -Infinity;
    let north = -Infinity;
    for (let k = 0; k < refs.length; k++) {
      const at = nodes.indexOf(refs[k]);
      if (at < 0) continue;
      const lng = nodes.lonAt(at);
      const lat = nodes.latAt(at);
      if (lng < west) west = lng;
      if (lng > east) east = lng;
      if (lat < south) south = lat;
      if (lat > north) north = lat;
    }
    if (west > east) return false;
    const x0 = Math.floor(west / PLACE_CELL_DEG);
    const x1 = Math.floor(east / PLACE_CELL_DEG);
    const y0 = Math.floor(south / PLACE_CELL_DEG);
    const y1 = Math.floor(north / PLACE_CELL_DEG);
    // A building larger than a few cells (a mall, a campus) is kept rather than scanned cell by cell.
    if ((x1 - x0 + 1) * (y1 - y0 + 1) > 64) return true;
    for (let x = x0; x <= x1; x++) for (let y = y0; y <= y1; y++) if (this.nodePlaceCells.has(placeCell(x, y))) return true;
    return false;
  }

  async finish(ctx: StageContext): Promise<StageSummary> {
    ctx.progress('relations', 0, this.relations.length);
    // A multipolygon's largest closed outer way is its outline; outers split over several ways are not
    // stitched together, and such a place keeps the centre of its longest way.
    for (const { record, outerWays } of this.relations) {
      const rings = outerWays.map((id) => this.wayRings.get(id)).filter((r): r is LngLat[] => r !== undefined);
      if (rings.length === 0) continue;
      const longest = rings.reduce((a, b) => (b.length > a.length ? b : a));
      const closed = longest.length >= 4 && longest[0][0] === longest[longest.length - 1][0] && longest[0][1] === longest[longest.length - 1][1];
      [record.lng, record.lat] = closed ? polygonCentroid(longest) : longest[Math.floor(longest.length / 2)];
      if (closed && longest.length <= MAX_OUTLINE_POINTS) record.outline = longest;
      this.places.push(record);
    }
    ctx.progress('relations', this.relations.length, this.relations.length);
    ctx.progress('building outlines', 0, this.nodePlaces.length);
    const outlines = this.buildings.assign(this.nodePlaces.map((i) => [this.places[i].lng, this.places[i].lat]), (done, total) => ctx.progress('building outlines', done, total));
    outlines.forEach((ring, k) => {
      if (ring) this.places[this.nodePlaces[k]].outline = ring;
    });
    ctx.progress('building outlines', this.nodePlaces.length, this.nodePlaces.length);
    writePlacesFile(ctx.dir, { format: PLACES_FORMAT, version: PLACES_VERSION, extract: ctx.extract, brands: this.brands.version, places: this.places },
      (done, total) => ctx.progress('writing places.bin', done, total));
    const summary = {
      places: this.places.length,
      chains: this.places.filter((p) => p.chain).length,
      outlines: this.places.filter((p) => p.outline).length,
      airports: this.places.filter((p) => p.iata).length,
    };
    // Written: the places and outlines go now, not when the import ends (routing finishes after this stage).
    this.places.length = 0;
    this.nodePlaces.length = 0;
    this.relations.length = 0;
    this.wayRings.clear();
    this.buildings.clear();
    return summary;
  }
}

/** Cells of ~100 m for the test above. */
const PLACE_CELL_DEG = 0.001;

function placeCell(x: number, y: number): number {
  return (x + 200_000) * 400_000 + (y + 100_000);
}

function ringOf(refs: ArrayLike<number>, nodes: NodeCoordinates): LngLat[] | undefined {
  const ring: LngLat[] = [];
  for (let i = 0; i < refs.length; i++) {
    const at = nodes.indexOf(refs[i]);
    // A way cut by the extract's border: its outline would be wrong, its centre roughly right.
    if (at < 0) continue;
    ring.push([nodes.lonAt(at), nodes.latAt(at)]);
  }
  return ring.length > 0 ? ring : undefined;
}
