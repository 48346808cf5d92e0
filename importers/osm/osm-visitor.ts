// What a reader of an OSM file calls for each entity. Nodes come as plain fields, not objects: an
// extract holds tens of millions of them and most are untagged points of ways.
import type { OsmRelation, OsmTags, OsmWay } from './stage';

export interface OsmVisitor {
  node?(id: number, lon: number, lat: number, tags: OsmTags | null): void;
  way?(way: OsmWay): void;
  relation?(relation: OsmRelation): void;
}

/** A file that is not a usable OSM extract (corrupt, truncated, another format): the message says why. */
export class OsmFormatError extends Error {}
