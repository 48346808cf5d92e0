// Named points of interest for the `place` layer of forward geocoding and autocomplete ("Public School
// 134", "Kunstmuseum Liechtenstein"). Categories and chains are the Places feature's business; this
// keeps the name, the tag that made it a place and its address.
import type { NodeCoordinates, OsmNode, OsmTags, OsmWay } from '../../stage';
import { readAddressTags } from './address-tags';
import type { NamedPlace } from './features';
import { readTranslations } from './name-translations';
import { vertexMean, wayCoords } from './way-geometry';

const PLACE_KEYS = ['amenity', 'shop', 'tourism', 'leisure', 'office', 'craft', 'healthcare', 'historic', 'aeroway', 'railway', 'public_transport'] as const;
const SKIPPED_VALUES = new Set(['parking', 'bench', 'waste_basket', 'bicycle_parking', 'vending_machine', 'post_box', 'toilets', 'recycling', 'telephone', 'drinking_water', 'rail', 'abandoned', 'disused', 'platform', 'stop_position', 'level_crossing', 'crossing', 'switch', 'buffer_stop', 'signal']);

function placeKind(t: OsmTags): string | undefined {
  if (t.name === undefined) return undefined;
  for (const key of PLACE_KEYS) {
    const value = t[key];
    if (value !== undefined && value !== 'no' && !SKIPPED_VALUES.has(value)) return `${key}=${value}`;
  }
  return undefined;
}

export class Pois {
  readonly places: NamedPlace[] = [];

  node(node: OsmNode): void {
    if (node.tags === null) return;
    const kind = placeKind(node.tags);
    if (kind === undefined) return;
    const name = node.tags.name!.trim();
    this.places.push({ ...readAddressTags(node.tags), name, names: readTranslations(node.tags, name), kind, lon: node.lon, lat: node.lat });
  }

  way(way: OsmWay, nodes: NodeCoordinates): void {
    const kind = placeKind(way.tags);
    if (kind === undefined) return;
    const coords = wayCoords(way.refs, nodes);
    if (coords === undefined || coords.length === 0) return;
    const [lon, lat] = vertexMean(coords);
    const name = way.tags.name!.trim();
    this.places.push({ ...readAddressTags(way.tags), name, names: readTranslations(way.tags, name), kind, lon, lat });
  }
}
