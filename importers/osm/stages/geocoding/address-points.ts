// Address points: nodes and closed ways (buildings, sites) with `addr:housenumber` and a street or place.
// Address nodes are also remembered by id, because interpolation ways end on them.
import type { NodeCoordinates, OsmNode, OsmWay } from '../../stage';
import { readAddressTags } from './address-tags';
import type { AddressPoint } from './features';
import { vertexMean, wayCoords } from './way-geometry';

export class AddressPoints {
  readonly points: AddressPoint[] = [];
  /** Address node id → its point, for interpolation ends. */
  readonly byNodeId = new Map<number, AddressPoint>();

  node(node: OsmNode): void {
    if (node.tags === null || node.tags['addr:housenumber'] === undefined) return;
    const a = readAddressTags(node.tags);
    if (a.number === undefined || a.street === undefined) return;
    const point: AddressPoint = { ...a, number: a.number, street: a.street, lon: node.lon, lat: node.lat, name: node.tags.name };
    this.byNodeId.set(node.id, point);
    // Interpolation-only ends are still addresses: the number is on the ground there.
    this.points.push(point);
  }

  way(way: OsmWay, nodes: NodeCoordinates): void {
    if (way.tags['addr:housenumber'] === undefined || way.tags['addr:interpolation'] !== undefined) return;
    const a = readAddressTags(way.tags);
    if (a.number === undefined || a.street === undefined) return;
    const coords = wayCoords(way.refs, nodes);
    if (coords === undefined || coords.length === 0) return;
    const [lon, lat] = vertexMean(coords);
    this.points.push({ ...a, number: a.number, street: a.street, lon, lat, name: way.tags.name });
  }
}
