// Named streets: highways a person can give as an address (not footways through parks, not motorway
// ramps). They answer street-level queries and carry interpolation between known numbers.
import type { NodeCoordinates, OsmWay } from '../../stage';
import type { NamedStreet } from './features';
import { readTranslations } from './name-translations';
import { wayCoords } from './way-geometry';

const NOT_ADDRESSABLE = new Set(['motorway_link', 'trunk_link', 'proposed', 'construction', 'platform', 'bus_stop', 'elevator', 'corridor']);

export class Streets {
  readonly streets: NamedStreet[] = [];

  way(way: OsmWay, nodes: NodeCoordinates): void {
    const highway = way.tags.highway;
    const name = way.tags.name;
    if (highway === undefined || name === undefined || NOT_ADDRESSABLE.has(highway) || way.refs.length < 2) return;
    const coords = wayCoords(way.refs, nodes);
    if (coords !== undefined) this.streets.push({ name: name.trim(), names: readTranslations(way.tags, name.trim()), coords });
  }
}
