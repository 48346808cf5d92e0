// The geocoding stage of `waymark data import`: keeps address points, interpolation ways, named
// streets, named POIs and administrative boundaries of the extract, then writes the embedded index
// (index-writer.ts) into `<extract>/geocoding/`.
import type { ImportStage, NodeCoordinates, OsmNode, OsmRelation, OsmWay, StageContext, StageSummary } from '../../stage';
import { AddressPoints } from './address-points';
import { AdminBoundaries } from './admin-boundaries';
import { writeGeocodingIndex } from './index-writer';
import { InterpolationWays } from './interpolation-ways';
import { Pois } from './pois';
import { Streets } from './streets';

export class GeocodingStage implements ImportStage {
  readonly name = 'geocoding';
  private readonly addresses = new AddressPoints();
  private readonly streets = new Streets();
  private readonly pois = new Pois();
  private readonly boundaries = new AdminBoundaries();
  private readonly interpolations = new InterpolationWays(this.addresses.byNodeId);

  relation(relation: OsmRelation): void {
    this.boundaries.relation(relation);
  }

  node(node: OsmNode): void {
    if (node.tags === null) return;
    this.addresses.node(node);
    this.pois.node(node);
  }

  way(way: OsmWay, nodes: NodeCoordinates): void {
    this.boundaries.way(way, nodes);
    this.addresses.way(way, nodes);
    this.streets.way(way, nodes);
    this.pois.way(way, nodes);
    this.interpolations.way(way, nodes);
  }

  async finish(ctx: StageContext): Promise<StageSummary> {
    ctx.progress('joining the boundaries into polygons', 0);
    const usable = this.boundaries.build((done, total) => ctx.progress('joining the boundaries into polygons', done, total));
    ctx.progress('boundaries', usable);
    const counts = writeGeocodingIndex(ctx.dir, {
      addresses: this.addresses.points,
      streets: this.streets.streets,
      places: this.pois.places,
      interpolations: this.interpolations.lines,
      boundaries: this.boundaries,
      progress: (step, done, total) => ctx.progress(step, done, total),
    });
    // Written: the features go now, not when the import ends (the routing stage finishes after this one).
    this.addresses.points.length = 0;
    this.addresses.byNodeId.clear();
    this.streets.streets.length = 0;
    this.pois.places.length = 0;
    this.interpolations.lines.length = 0;
    return { ...counts, boundaries: usable, openBoundaries: this.boundaries.openRings };
  }
}
