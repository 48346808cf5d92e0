// `addr:interpolation` ways: a line whose end nodes carry house numbers, the numbers between them
// spread evenly along it (odd, even, all, or a numeric step). Address nodes were read before ways,
// so both ends are known when the way arrives.
import type { NodeCoordinates, OsmWay } from '../../stage';
import type { AddressPoint, InterpolationLine } from './features';
import { wayCoords } from './way-geometry';

export class InterpolationWays {
  readonly lines: InterpolationLine[] = [];
  /** Ways whose ends carry no house number. */
  unusable = 0;

  constructor(private readonly addressNodes: ReadonlyMap<number, AddressPoint>) {}

  way(way: OsmWay, nodes: NodeCoordinates): void {
    const scheme = way.tags['addr:interpolation'];
    if (scheme === undefined || way.refs.length < 2) return;
    const first = this.addressNodes.get(way.refs[0]);
    const last = this.addressNodes.get(way.refs[way.refs.length - 1]);
    const coords = wayCoords(way.refs, nodes);
    if (first === undefined || last === undefined || coords === undefined) {
      this.unusable++;
      return;
    }
    this.lines.push({
      street: way.tags['addr:street'] ?? first.street,
      scheme,
      firstNumber: first.number,
      lastNumber: last.number,
      coords,
      postalCode: first.postalCode ?? last.postalCode,
      city: first.city ?? last.city,
    });
  }
}
