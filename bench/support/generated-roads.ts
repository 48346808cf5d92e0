// A seeded synthetic road network, as OSM entities, for the routing benchmark and the hierarchy test:
// a perturbed grid of streets whose lines have road classes (every 4th tertiary, 8th secondary, 32nd
// primary, the rest residential with a fifth of the blocks missing, so T-junctions and dead ends, and
// a share of oneways), two-carriageway
// motorways every 64 lines that cross the grid without touching it and meet it at interchanges
// (motorway_link ramps) at every secondary and primary line, traffic signals where major roads cross,
// some bollards, and turn restrictions (no_left_turn, only_straight_on) at primary crossings. Ways end
// at every 8th line, as mapped roads are split. Blocks carry 0–3 shape points, about 3.5 OSM nodes per
// intersection. Placed in Kansas so no border is crossed.
//
// Everything is a pure function of (side, seed): ids and coordinates are computed, not drawn in order,
// so relations can name ways before the ways are generated (the pipeline's pass order).
import type { OsmNode, OsmRelation, OsmTags, OsmWay } from '../../importers/osm/stage';

export interface RoadSink {
  relation(r: OsmRelation): void;
  node(n: OsmNode): void;
  way(w: OsmWay): void;
}

export interface GeneratedCounts {
  nodes: number;
  ways: number;
  relations: number;
  intersections: number;
}

const LON0 = -98.6;
const LAT0 = 38.2;
/** Grid spacing, metres, and its jitter. */
const SPACING_M = 110;
const JITTER_M = 22;
const DLAT = SPACING_M / 111_195;
const DLON = DLAT / Math.cos(LAT0 * Math.PI / 180);
const MOTORWAY_EVERY = 64;
const WAY_SPLIT = 8;

type RoadClass = 'primary' | 'secondary' | 'tertiary' | 'residential';

function lineClass(i: number): RoadClass {
  if (i % 32 === 0) return 'primary';
  if (i % 8 === 0) return 'secondary';
  if (i % 4 === 0) return 'tertiary';
  return 'residential';
}

const MAJOR = (c: RoadClass) => c === 'primary' || c === 'secondary';

/** Intersections per side for about this many OSM nodes. */
export function sideForNodes(nodes: number): number {
  return Math.max(16, Math.round(Math.sqrt(nodes / 3.5)));
}

export function generateRoads(side: number, seed: number, sink: RoadSink): GeneratedCounts {
  const S = side;
  // Integer hash of (a, b, salt) to [0, 1): positions and choices without an ordered stream.
  const hash = (a: number, b: number, salt: number): number => {
    let h = Math.imul(a + 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x7f4a7c15, 0xc2b2ae35) ^ Math.imul(salt + seed, 0x27d4eb2f);
    h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
    h = Math.imul(h ^ (h >>> 12), 0x297a2d39);
    return ((h ^ (h >>> 15)) >>> 0) / 4294967296;
  };
  const lon = (x: number, y: number) => LON0 + (x + ((hash(x, y, 1) - 0.5) * 2 * JITTER_M) / SPACING_M) * DLON;
  const lat = (x: number, y: number) => LAT0 + (y + ((hash(x, y, 2) - 0.5) * 2 * JITTER_M) / SPACING_M) * DLAT;
  /** Block from (x, y) east (dir 0) or north (dir 1): present? */
  const block = (x: number, y: number, dir: 0 | 1): boolean => {
    if (dir === 0 ? x + 1 >= S : y + 1 >= S) return false;
    const cls = lineClass(dir === 0 ? y : x);
    return cls !== 'residential' || hash(x, y, 3 + dir) > 0.2;
  };
  const shapePoints = (x: number, y: number, dir: 0 | 1) => (block(x, y, dir) ? Math.floor(hash(x, y, 5 + dir) * 4) : 0);
  /** Node id: 5 slots per intersection (itself, 2 shape points east, 2 north); motorways after. */
  const nodeId = (x: number, y: number, slot: number) => 1 + (y * S + x) * 5 + slot;
  const motorwayBase = 1 + S * S * 5;
  /** Motorway lines: horizontal between rows m and m+1, vertical between columns m and m+1. */
  const motorwayLines: number[] = [];
  for (let m = MOTORWAY_EVERY / 2; m + 1 < S; m += MOTORWAY_EVERY) motorwayLines.push(m);
  /** Motorway node: line index, orientation (0 horizontal, 1 vertical), carriageway (0 increasing, 1 decreasing), position along. */
  const motorwayNode = (line: number, orient: number, carriageway: number, at: number) => motorwayBase + (((line * 2 + orient) * 2 + carriageway) * S + at);
  const wayId = (dir: 0 | 1, line: number, start: number) => 1 + 2 * (line * S + start) + dir;
  let motorwayWayId = 3 + 2 * S * S;

  const counts: GeneratedCounts = { nodes: 0, ways: 0, relations: 0, intersections: 0 };
  const tagCache = new Map<string, OsmTags>();
  const tags = (key: string, make: () => Record<string, string>): OsmTags => {
    let t = tagCache.get(key);
    if (!t) tagCache.set(key, (t = Object.freeze(make())));
    return t;
  };

  // Relations: at crossings of two major lines one of which is primary (ways end there).
  for (let y = WAY_SPLIT; y + WAY_SPLIT < S; y += WAY_SPLIT) {
    for (let x = WAY_SPLIT; x + WAY_SPLIT < S; x += WAY_SPLIT) {
      if (lineClass(x) !== 'primary' && lineClass(y) !== 'primary') continue;
      const r = hash(x, y, 7);
      const via = { type: 'node' as const, ref: nodeId(x, y, 0), role: 'via' };
      const northWay = wayId(1, x, y);
      if (r < 0.5) {
        const members = [{ type: 'way' as const, ref: wayId(0, y, x - WAY_SPLIT), role: 'from' }, via, { type: 'way' as const, ref: northWay, role: 'to' }];
        sink.relation({ id: ++counts.relations, members, tags: { type: 'restriction', restriction: 'no_left_turn' } });
      } else if (r < 0.7) {
        const members = [{ type: 'way' as const, ref: wayId(1, x, y - WAY_SPLIT), role: 'from' }, via, { type: 'way' as const, ref: northWay, role: 'to' }];
        sink.relation({ id: ++counts.relations, members, tags: { type: 'restriction', restriction: 'only_straight_on' } });
      }
    }
  }

  // Nodes, in id order.
  const signalTags = tags('signals', () => ({ highway: 'traffic_signals' }));
  const bollardTags = tags('bollard', () => ({ barrier: 'bollard' }));
  for (let y = 0; y < S; y++) {
    for (let x = 0; x < S; x++) {
      const cx = lineClass(x), cy = lineClass(y);
      let t: OsmTags | null = null;
      if ((MAJOR(cx) && MAJOR(cy)) || ((MAJOR(cx) || MAJOR(cy)) && hash(x, y, 8) < 0.3)) t = signalTags;
      else if (cx === 'residential' && cy === 'residential' && hash(x, y, 9) < 0.003) t = bollardTags;
      sink.node({ id: nodeId(x, y, 0), lon: lon(x, y), lat: lat(x, y), tags: t });
      counts.nodes++;
      counts.intersections++;
      for (const dir of [0, 1] as const) {
        const k = shapePoints(x, y, dir);
        const [x2, y2] = dir === 0 ? [x + 1, y] : [x, y + 1];
        for (let i = 1; i <= k; i++) {
          const f = i / (k + 1);
          const bend = ((hash(x, y, 10 + dir * 2 + i) - 0.5) * 16) / SPACING_M;
          const px = lon(x, y) + (lon(x2, y2) - lon(x, y)) * f + (dir === 1 ? bend * DLON : 0);
          const py = lat(x, y) + (lat(x2, y2) - lat(x, y)) * f + (dir === 0 ? bend * DLAT : 0);
          sink.node({ id: nodeId(x, y, 1 + dir * 2 + (i - 1)), lon: px, lat: py, tags: null });
          counts.nodes++;
        }
      }
    }
  }
  for (const line of motorwayLines) {
    for (const orient of [0, 1]) {
      for (const cw of [0, 1]) {
        const offset = line + (cw === 0 ? 0.4 : 0.6);
        for (let at = 0; at < S; at++) {
          const [fx, fy] = orient === 0 ? [at, offset] : [offset, at];
          sink.node({ id: motorwayNode(line, orient, cw, at), lon: LON0 + fx * DLON, lat: LAT0 + fy * DLAT, tags: null });
          counts.nodes++;
        }
      }
    }
  }

  // Ways: street lines split at every WAY_SPLIT-th crossing line and where a block is missing.
  const refs: number[] = [];
  const emit = (id: number, t: OsmTags, reverse: boolean) => {
    if (refs.length < 2) return;
    if (reverse) refs.reverse();
    sink.way({ id, refs, tags: t });
    counts.ways++;
  };
  const streetTags = (cls: RoadClass, dir: 0 | 1, line: number, oneway: boolean): OsmTags =>
    tags(`${cls}:${dir}:${line}:${oneway}`, () => {
      const t: Record<string, string> = { highway: cls, name: `${dir === 0 ? 'Street' : 'Avenue'} ${line}` };
      if (cls === 'primary') t.maxspeed = '45 mph';
      if (cls === 'secondary') t.maxspeed = '35 mph';
      if (oneway) t.oneway = 'yes';
      return t;
    });
  for (const dir of [0, 1] as const) {
    for (let line = 0; line < S; line++) {
      const cls = lineClass(line);
      const oneway = cls === 'residential' && hash(line, dir, 11) < 0.3;
      const t = streetTags(cls, dir, line, oneway);
      // Oneway lines alternate direction, as downtown grids do.
      const reverse = oneway && line % 2 === 1;
      let start = 0;
      refs.length = 0;
      for (let at = 0; at < S; at++) {
        const [x, y] = dir === 0 ? [at, line] : [line, at];
        if (refs.length === 0) start = at;
        refs.push(nodeId(x, y, 0));
        const present = block(x, y, dir);
        if (!present || (at > start && at % WAY_SPLIT === 0)) {
          emit(wayId(dir, line, start), t, reverse);
          refs.length = 0;
          if (present) {
            start = at;
            refs.push(nodeId(x, y, 0));
          }
        }
        if (present) {
          const k = shapePoints(x, y, dir);
          for (let i = 0; i < k; i++) refs.push(nodeId(x, y, 1 + dir * 2 + i));
        }
      }
      emit(wayId(dir, line, start), t, reverse);
      refs.length = 0;
    }
  }
  const motorwayTags = (orient: number, line: number) => tags(`motorway:${orient}:${line}`, () => ({ highway: 'motorway', ref: `I ${orient === 0 ? 'E' : 'N'}${line}`, maxspeed: '65 mph', oneway: 'yes' }));
  const linkTags = tags('link', () => ({ highway: 'motorway_link', oneway: 'yes' }));
  const link = (a: number, b: number) => {
    refs.length = 0;
    refs.push(a, b);
    emit(motorwayWayId++, linkTags, false);
  };
  for (const line of motorwayLines) {
    for (const orient of [0, 1]) {
      for (const cw of [0, 1]) {
        for (let from = 0; from + 1 < S; from += 16) {
          refs.length = 0;
          for (let at = from; at <= Math.min(S - 1, from + 16); at++) refs.push(motorwayNode(line, orient, cw, at));
          emit(motorwayWayId++, motorwayTags(orient, line), cw === 1);
        }
        // Interchanges at each major crossing line: off the carriageway just before, on just after.
        for (let at = WAY_SPLIT; at + 1 < S; at += WAY_SPLIT) {
          const street = (side: number) => (orient === 0 ? nodeId(at, line + side, 0) : nodeId(line + side, at, 0));
          const [before, after, side] = cw === 0 ? [at - 1, at + 1, 0] : [at + 1, at - 1, 1];
          link(motorwayNode(line, orient, cw, before), street(side));
          link(street(side), motorwayNode(line, orient, cw, after));
        }
      }
    }
  }
  return counts;
}
