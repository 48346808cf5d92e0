// A routing profile decides, from a way's tags, whether a mode may use it in each direction and how
// fast (OSRM's profiles are the model, in the order of their way handlers: blocked ways, physical
// limits, access per direction, oneway, ferries and movable bridges, speed by class, maxspeed, surface;
// docs/routing-profiles.md writes each one down). Profiles are data (ProfileSpec) read by one evaluator;
// the engine never sees tags, only the speeds and flags decided here.
import type { OsmTags } from '../../../stage';
import { parseDurationSeconds, parseMaxspeed, parseMetres, parseTonnes } from './maxspeed';

export type RoutingMode = 'car' | 'truck' | 'bike' | 'foot';

export interface ProfileSpec {
  mode: RoutingMode;
  /** km/h by road class (`highway`, or `railway=platform`, `man_made=pier`, `amenity=parking`); a class not listed is not routable. */
  speeds: Readonly<Record<string, number>>;
  /** Access tags, most specific first (`motorcar`, `motor_vehicle`, `vehicle`, `access`). */
  accessKeys: readonly string[];
  /** Access values that open a way (OSRM's access_tag_whitelist). */
  allowed: ReadonlySet<string>;
  /** Values of those tags that close the way to this mode (OSRM's access_tag_blacklist). */
  denied: ReadonlySet<string>;
  /**
   * Access values that leave a way open but restricted (OSRM's `restricted` roads: `private`,
   * `destination`…): routes enter such roads only to start or end there (a routing penalty on the turn
   * onto them, mode-graph.ts). Only on `restrictedClasses`; elsewhere a denied value closes the way.
   */
  restrictedAccess?: ReadonlySet<string>;
  restrictedClasses?: ReadonlySet<string>;
  /** Speed of a class not in `speeds` that an access tag opens (OSRM's default_speed). */
  openingSpeedKph: number;
  /** Classes and way properties never used (OSRM's `avoid`: steps, construction, proposed, motorroad). */
  avoid: ReadonlySet<string>;
  /** Whether plain `oneway` binds this mode (OSRM's oneway_handling = true), besides `oneway:<key>`. */
  obeysOneway: boolean;
  /** Suffixes of mode-specific oneway keys, most specific first (`oneway:motorcar`…; `oneway:foot`). */
  onewayKeys: readonly string[];
  /** Share of `maxspeed` used as the travel speed (traffic, junctions); 0 ignores maxspeed. */
  maxspeedFactor: number;
  /** Speed cap of the vehicle, km/h. */
  maxKph: number;
  /** Ferry speed when the way has no usable `duration`, km/h; shuttle trains. */
  ferryKph: number;
  trainKph?: number;
  /** Movable bridges (`bridge=movable`) without a duration, km/h; undefined: ordinary roads. */
  movableBridgeKph?: number;
  /** Vehicle size: ways tagged below these (height, width at or below, length, weight) are closed. */
  vehicle?: { heightMetres: number; widthMetres: number; lengthMetres: number; weightTonnes: number };
  /** Speed caps by `surface`, `tracktype`, `smoothness` (0 closes the way). */
  surfaceKph?: Readonly<Record<string, number>>;
  tracktypeKph?: Readonly<Record<string, number>>;
  smoothnessKph?: Readonly<Record<string, number>>;
  /** Whether `highway=service` + `access=private` (for the mode) closes the road to route ends (OSRM's service_access_tag_blacklist). */
  servicePrivateNoStart?: boolean;
  /**
   * A road only for high-occupancy vehicles (`hov=designated`, or every lane of `hov:lanes` designated)
   * is restricted as a `private` one is (OSRM's car profile, its `handle_hov`).
   */
  hovRestricted?: boolean;
  /**
   * OSRM's routability rate penalties (car.lua's `penalties` handler): a road's routing weight counts
   * its travel time divided by a share (WaySpeeds.forwardRate); its travel time stays the speed's.
   */
  ratePenalties?: boolean;
  /** Mode-specific rule (escalators…), after the generic ones. */
  adjust?(tags: OsmTags, result: WaySpeeds): void;
  /**
   * A profile whose modes do not fit the generic rules (the bicycle: ridden, pushed, on a train) evaluates
   * its ways itself; the fields above still describe it to the node rules (barriers.ts) and summaries.
   */
  evaluate?(tags: OsmTags, lengthMetres: number): WaySpeeds | null;
}

export interface WaySpeeds {
  /** km/h along the way's node order, 0 when closed in that direction. */
  forwardKph: number;
  backwardKph: number;
  /** For ferries with a `duration` tag: the whole way's crossing time, seconds. */
  durationSeconds?: number;
  /** Restricted access (profile's `restrictedAccess`): for the ends of a route only. */
  restricted?: boolean;
  /** Whether a route may start or end on the way (not on ferries, trains, private service roads). */
  startpoint?: boolean;
  /** A mode other than the profile's own (bicycles pushed on foot-only ways): `pushing bike`. */
  pushing?: { forward: boolean; backward: boolean };
  /** Share of the speed the routing weight counts with, per direction (ProfileSpec.ratePenalties); 1 when absent. */
  forwardRate?: number;
  backwardRate?: number;
  /** A train the mode rides on (a bike with `bicycle=yes` on a railway): OSRM's `train` mode. */
  train?: boolean;
}

const ONEWAY_YES = new Set(['yes', 'true', '1']);
const ONEWAY_REVERSE = new Set(['-1', 'reverse']);
/** OSRM's default construction whitelist (car): these `construction=*` values leave a road open. */
const CONSTRUCTION_OPEN = new Set(['no', 'widening', 'minor']);

/** The road class a way stands for: its `highway`, else a walkable platform, pier or car park. */
export function wayClass(tags: OsmTags): string | undefined {
  if (tags.highway !== undefined) return tags.highway;
  if (tags.railway === 'platform' || tags.public_transport === 'platform') return 'platform';
  if (tags.man_made === 'pier') return 'pier';
  if (tags.amenity === 'parking' || tags.amenity === 'parking_entrance') return 'parking';
  return undefined;
}

/** OSRM's resolve_access: of `a;b` values, the one that opens most (allowed > restricted > denied > other). */
export function resolveAccess(spec: ProfileSpec, value: string | undefined): string | undefined {
  if (value === undefined || !value.includes(';')) return value;
  const rank = (v: string) => (spec.allowed.has(v) ? 3 : spec.restrictedAccess?.has(v) ? 2 : spec.denied.has(v) ? 1 : 0);
  let best: string | undefined;
  for (const part of value.split(';').map((s) => s.trim()).filter((s) => s !== '')) {
    if (best === undefined || rank(part) > rank(best)) best = part;
  }
  return best ?? value;
}

/**
 * `key:forward` and `key:backward`, made once per key: building them for every way and key was a fifth of
 * the CPU of reading a region (profile of Baltimore ×8×8 and ×12×12), and the garbage they left.
 */
const DIRECTIONAL_KEYS = new Map<string, readonly [string, string]>();
/** Every key forwardBackward has been asked about, and its directional forms, mapped to the key. */
const BASE_OF = new Map<string, string>();

function directionalKeys(key: string): readonly [string, string] {
  let keys = DIRECTIONAL_KEYS.get(key);
  if (keys === undefined) {
    DIRECTIONAL_KEYS.set(key, (keys = [`${key}:forward`, `${key}:backward`]));
    BASE_OF.set(key, key);
    BASE_OF.set(keys[0], key);
    BASE_OF.set(keys[1], key);
    lastTags = null;
  }
  return keys;
}

/**
 * The keys of the last frozen tags seen that forwardBackward reads, by their base key. A way's tags are
 * read by every mode's profile in turn, a dozen lists of keys each, and most ways carry none of them:
 * three missed lookups per key on a dictionary-mode object were 15 % of reading Baltimore ×8×8 (profile),
 * where one pass over the way's own eight or so keys answers them all. Only frozen tags (the pipeline's,
 * stage.ts) are remembered, so a caller changing an object between calls is never answered from the past.
 */
let lastTags: OsmTags | null = null;
/** Lists of keys whose keys are in BASE_OF already (profiles pass the same arrays every time). */
const REGISTERED = new WeakSet<readonly string[]>();
let lastBases: ReadonlySet<string> = new Set();

function basesIn(tags: OsmTags): ReadonlySet<string> | null {
  if (tags === lastTags) return lastBases;
  if (!Object.isFrozen(tags)) return null;
  const bases = new Set<string>();
  for (const k in tags) {
    const base = BASE_OF.get(k);
    if (base !== undefined) bases.add(base);
  }
  lastTags = tags;
  lastBases = bases;
  return bases;
}

/** A tag read per direction over keys in order: `key:forward` before `key`, the first key that has either deciding. */
export function forwardBackward(tags: OsmTags, keys: readonly string[]): [string | undefined, string | undefined] {
  let forward: string | undefined;
  let backward: string | undefined;
  if (!REGISTERED.has(keys)) {
    for (const key of keys) directionalKeys(key);
    REGISTERED.add(keys);
  }
  const present = basesIn(tags);
  if (present !== null && present.size === 0) return [undefined, undefined];
  for (const key of keys) {
    if (present !== null && !present.has(key)) continue;
    const [forwardKey, backwardKey] = directionalKeys(key);
    forward ??= tags[forwardKey];
    backward ??= tags[backwardKey];
    if (forward === undefined || backward === undefined) {
      const common = tags[key];
      forward ??= common;
      backward ??= common;
    }
    if (forward !== undefined && backward !== undefined) break;
  }
  return [forward, backward];
}

function isFerry(tags: OsmTags): boolean {
  return tags.route === 'ferry' || tags.route === 'shuttle_train';
}

/** A way OSRM's blocked_ways / avoid_ways drop for this profile. */
function blocked(spec: ProfileSpec, tags: OsmTags, cls: string | undefined): boolean {
  if (tags.area === 'yes' && spec.avoid.has('area')) return true;
  if (cls !== undefined && spec.avoid.has(cls)) return true;
  if (spec.avoid.has('construction') && (cls === 'construction' || tags.railway === 'construction')) return true;
  if (spec.avoid.has('construction') && tags.construction !== undefined && !CONSTRUCTION_OPEN.has(tags.construction)) return true;
  if (spec.avoid.has('motorroad') && tags.motorroad === 'yes') return true;
  if (spec.avoid.has('proposed') && tags.proposed !== undefined && (cls === undefined || cls === 'proposed')) return true;
  if (tags.oneway === 'reversible' && spec.obeysOneway) return true;
  if (tags.impassable === 'yes' || tags.status === 'impassable') return true;
  return cls === 'proposed' || cls === 'construction';
}

const HEIGHT_KEYS = ['maxheight:physical', 'maxheight'];
const WIDTH_KEYS = ['maxwidth:physical', 'maxwidth', 'width', 'est_width'];
const LENGTH_KEYS = ['maxlength'];
const WEIGHT_KEYS = ['maxweightrating', 'maxweight'];
const MAXSPEED_KEYS = ['maxspeed:advisory', 'maxspeed', 'source:maxspeed', 'maxspeed:type'];

/** Closes the directions a vehicle's size does not fit (maxheight, maxwidth/width, maxlength, maxweight). */
function sizeLimits(spec: ProfileSpec, tags: OsmTags): [boolean, boolean] {
  const v = spec.vehicle;
  if (v === undefined) return [true, true];
  const fits = (keys: readonly string[], parse: (s: string | undefined) => number | null, ok: (limit: number) => boolean): [boolean, boolean] => {
    const [f, b] = forwardBackward(tags, keys);
    const pf = parse(f), pb = parse(b);
    return [pf === null || ok(pf), pb === null || ok(pb)];
  };
  const height = fits(HEIGHT_KEYS, parseMetres, (m) => m >= v.heightMetres);
  const width = fits(WIDTH_KEYS, parseMetres, (m) => m > v.widthMetres);
  const length = fits(LENGTH_KEYS, parseMetres, (m) => m >= v.lengthMetres);
  const weight = fits(WEIGHT_KEYS, parseTonnes, (t) => t >= v.weightTonnes);
  return [height[0] && width[0] && length[0] && weight[0], height[1] && width[1] && length[1] && weight[1]];
}

/** The mode's speeds on a way, or null when the mode may not use it at all. */
export function waySpeeds(spec: ProfileSpec, tags: OsmTags, lengthMetres: number): WaySpeeds | null {
  if (spec.evaluate !== undefined) return spec.evaluate(tags, lengthMetres);
  const cls = wayClass(tags);
  const ferry = isFerry(tags);
  if (!ferry && cls === undefined) return null;
  if (blocked(spec, tags, ferry ? undefined : cls)) return null;
  let [fits, fitsBack] = sizeLimits(spec, tags);

  // Access per direction.
  const [fwdRaw, bwdRaw] = forwardBackward(tags, spec.accessKeys);
  const fwdAccess = resolveAccess(spec, fwdRaw);
  const bwdAccess = resolveAccess(spec, bwdRaw);
  const restrictable = cls !== undefined && spec.restrictedClasses?.has(cls) === true;
  const fwdRestricted = restrictable && fwdAccess !== undefined && spec.restrictedAccess?.has(fwdAccess) === true;
  const bwdRestricted = restrictable && bwdAccess !== undefined && spec.restrictedAccess?.has(bwdAccess) === true;
  let forwardOpen = fits && !(fwdAccess !== undefined && spec.denied.has(fwdAccess) && !fwdRestricted);
  let backwardOpen = fitsBack && !(bwdAccess !== undefined && spec.denied.has(bwdAccess) && !bwdRestricted);
  if (!forwardOpen && !backwardOpen) return null;

  // Oneway.
  const specific = spec.onewayKeys.map((k) => tags[`oneway:${k}`]).find((v) => v !== undefined);
  const oneway = specific ?? (spec.obeysOneway ? tags.oneway : undefined);
  if (oneway !== undefined && ONEWAY_REVERSE.has(oneway)) forwardOpen = false;
  else if (oneway !== undefined && ONEWAY_YES.has(oneway)) backwardOpen = false;
  else if (spec.obeysOneway && oneway !== 'no' && (cls === 'motorway' || tags.junction === 'roundabout' || tags.junction === 'circular')) backwardOpen = false;

  // Speeds: ferries and shuttle trains, movable bridges, else the class (or an access tag opening it).
  let forwardKph = -1;
  let backwardKph = -1;
  let durationSeconds: number | undefined;
  const routeKph = tags.route === 'ferry' ? spec.ferryKph : tags.route === 'shuttle_train' ? spec.trainKph : undefined;
  const movable = tags.bridge === 'movable' && spec.movableBridgeKph !== undefined && !ferry;
  if (routeKph !== undefined || movable) {
    const duration = parseDurationSeconds(tags.duration);
    if (duration !== null && duration > 0) {
      durationSeconds = Math.max(duration, 1);
      forwardKph = backwardKph = (lengthMetres / durationSeconds) * 3.6;
    } else forwardKph = backwardKph = (movable ? spec.movableBridgeKph : routeKph)!;
  } else if (ferry) return null;
  if (forwardKph < 0 && !movable) {
    const base = cls === undefined ? undefined : spec.speeds[cls];
    if (base !== undefined) forwardKph = backwardKph = base;
    else {
      // A class the mode does not use by default, opened by an access tag that is not denied.
      const opens = (a: string | undefined) => a !== undefined && !spec.denied.has(a);
      forwardKph = opens(fwdAccess) ? spec.openingSpeedKph : -1;
      backwardKph = opens(bwdAccess) ? spec.openingSpeedKph : -1;
      if (forwardKph < 0 && backwardKph < 0) return null;
      if (forwardKph < 0) forwardOpen = false;
      if (backwardKph < 0) backwardOpen = false;
    }
    if (spec.maxspeedFactor > 0) {
      const [f, b] = forwardBackward(tags, MAXSPEED_KEYS);
      const lf = parseMaxspeed(f), lb = parseMaxspeed(b);
      if (lf !== null && lf > 0) forwardKph = lf * spec.maxspeedFactor;
      if (lb !== null && lb > 0) backwardKph = lb * spec.maxspeedFactor;
    }
    const caps = [spec.surfaceKph?.[tags.surface ?? ''], spec.tracktypeKph?.[tags.tracktype ?? ''], spec.smoothnessKph?.[tags.smoothness ?? '']];
    for (const cap of caps) {
      if (cap === undefined) continue;
      if (cap <= 0) return null;
      forwardKph = Math.min(forwardKph, cap);
      backwardKph = Math.min(backwardKph, cap);
    }
  }
  forwardKph = Math.min(forwardKph, spec.maxKph);
  backwardKph = Math.min(backwardKph, spec.maxKph);

  const startpoint = !ferry && !(spec.servicePrivateNoStart && cls === 'service' && fwdAccess === 'private');
  const result: WaySpeeds = {
    forwardKph: forwardOpen ? Math.max(0, forwardKph) : 0,
    backwardKph: backwardOpen ? Math.max(0, backwardKph) : 0,
    durationSeconds,
    restricted: !ferry && (fwdRestricted || bwdRestricted || (spec.hovRestricted === true && hovOnly(tags))),
    startpoint,
  };
  if (spec.ratePenalties) [result.forwardRate, result.backwardRate] = ratePenalties(tags, forwardOpen && backwardOpen);
  spec.adjust?.(tags, result);
  if (result.forwardKph <= 0 && result.backwardKph <= 0) return null;
  return result;
}

/** OSRM's `service_penalties`: service roads that are not through roads. */
const SERVICE_RATE: Readonly<Record<string, number>> = {
  alley: 0.5, parking: 0.5, parking_aisle: 0.5, driveway: 0.5, 'drive-through': 0.5, 'drive-thru': 0.5,
};

/**
 * The routability rate penalties of current OSRM's car profile (its `penalties` way handler), forward and
 * backward: the smallest of a service road's (SERVICE_RATE), a narrow two-way road's (`width` 3 m or less
 * 0.5, under 4 m 0.6, under 5 m 0.75, under 6 m 0.8; `lanes=1` 0.5; `lane_markings=no` 0.75), a side road's
 * (`side_road=yes|rotary` 0.8), an alternating one-way's (0.4) and, against a `priority` direction, 0.7.
 */
function ratePenalties(tags: OsmTags, bidirectional: boolean): [number, number] {
  let narrow = 1;
  if (bidirectional) {
    if (tags.lane_markings === 'no') narrow = 0.75;
    const width = parseMetres(tags.width);
    if (width !== null) narrow = width <= 3 ? 0.5 : width < 4 ? 0.6 : width < 5 ? 0.75 : width < 6 ? 0.8 : narrow;
    // OSRM reads the leading digits of `lanes`.
    const lanes = /^\d+/.exec(tags.lanes ?? '');
    if (lanes !== null && Number(lanes[0]) <= 1) narrow = 0.5;
  }
  const side = tags.side_road === 'yes' || tags.side_road === 'rotary' ? 0.8 : 1;
  const alternating = tags.oneway === 'alternating' ? 0.4 : 1;
  const both = Math.min(SERVICE_RATE[tags.service ?? ''] ?? 1, narrow, side, alternating);
  return [Math.min(both, tags.priority === 'backward' ? 0.7 : 1), Math.min(both, tags.priority === 'forward' ? 0.7 : 1)];
}

/** Every lane of the road is for high-occupancy vehicles only. */
function hovOnly(tags: OsmTags): boolean {
  if (tags.hov === 'designated') return true;
  const allDesignated = (v: string | undefined) => v !== undefined && v.split('|').every((lane) => lane === 'designated');
  if (allDesignated(tags['hov:lanes'])) return true;
  return allDesignated(tags['hov:lanes:forward']) && allDesignated(tags['hov:lanes:backward']);
}
