// A routing profile decides, from a way's tags, whether a mode may use it in each direction and how
// fast (OSRM's profiles are the model; docs/routing-profiles.md writes each one down). Profiles are data
// (ProfileSpec: speeds per class, access keys and values) read by one evaluator; the engine never sees
// tags, only the speeds and flags decided here.
import type { OsmTags } from '../../stage';
import { parseDurationSeconds, parseMaxspeed, parseMetres, parseTonnes } from './maxspeed';

export type RoutingMode = 'car' | 'truck' | 'bike' | 'foot';

export interface ProfileSpec {
  mode: RoutingMode;
  /** km/h by `highway` value; a class not listed is not routable. */
  speeds: Readonly<Record<string, number>>;
  /** Access tags, most specific first (`motorcar`, `motor_vehicle`, `vehicle`, `access`). */
  accessKeys: readonly string[];
  /** Values of those tags that close the way to this mode. */
  denied: ReadonlySet<string>;
  /**
   * Access values that leave a way open but restricted (OSRM's `restricted` roads: `private`,
   * `destination`…): routes enter such roads only to start or end there (a routing penalty on the turn
   * onto them, mode-graph.ts). Only on the classes of `speeds`.
   */
  restrictedAccess?: ReadonlySet<string>;
  /** Values that open a way whose class is not in `speeds` (e.g. `bicycle=yes` on a footway). */
  openingSpeedKph: number;
  /** Whether oneway tags bind this mode (not pedestrians). */
  obeysOneway: boolean;
  /** Mode-specific oneway key (`oneway:bicycle`) read before `oneway`. */
  onewayKey?: string;
  /** Share of `maxspeed` used as the travel speed (traffic, junctions); 0 ignores maxspeed. */
  maxspeedFactor: number;
  /** Speed cap of the vehicle, km/h. */
  maxKph: number;
  /** Ferry speed when the way has no usable `duration`, km/h. */
  ferryKph: number;
  /** Truck limits: ways tagged below these are closed. */
  vehicle?: { weightTonnes: number; heightMetres: number };
  /** Mode-specific rule (bicycle contraflow, surface…), after the generic ones. */
  adjust?(tags: OsmTags, result: WaySpeeds): void;
}

export interface WaySpeeds {
  /** km/h along the way's node order, 0 when closed in that direction. */
  forwardKph: number;
  backwardKph: number;
  /** For ferries with a `duration` tag: the whole way's crossing time, seconds. */
  durationSeconds?: number;
  /** Restricted access (profile's `restrictedAccess`): for the ends of a route only. */
  restricted?: boolean;
}

const ONEWAY_YES = new Set(['yes', 'true', '1']);
const ONEWAY_REVERSE = new Set(['-1', 'reverse']);
/** Implied oneway classes (OSRM: motorways and roundabouts). */
const IMPLIED_ONEWAY = new Set(['motorway']);

function accessOf(spec: ProfileSpec, tags: OsmTags, suffix: string): string | undefined {
  for (const key of spec.accessKeys) {
    const v = tags[key + suffix];
    if (v !== undefined) return v;
  }
  return undefined;
}

function isFerry(tags: OsmTags): boolean {
  return tags.route === 'ferry' || tags.route === 'shuttle_train';
}

/** The mode's speeds on a way, or null when the mode may not use it at all. */
export function waySpeeds(spec: ProfileSpec, tags: OsmTags, lengthMetres: number): WaySpeeds | null {
  const highway = tags.highway;
  const ferry = isFerry(tags);
  if (!ferry && highway === undefined) return null;
  if (tags.area === 'yes' && !ferry) return null;
  const access = accessOf(spec, tags, '');
  if (access !== undefined && spec.denied.has(access)) return null;
  if (tags.impassable === 'yes' || tags.status === 'impassable' || highway === 'construction' || highway === 'proposed') return null;

  let kph: number;
  let durationSeconds: number | undefined;
  if (ferry) {
    const duration = parseDurationSeconds(tags.duration);
    kph = spec.ferryKph;
    if (duration !== null && duration > 0) {
      durationSeconds = duration;
      kph = (lengthMetres / duration) * 3.6;
    }
  } else {
    const base = spec.speeds[highway!];
    if (base === undefined) {
      // A class the mode does not use by default, opened by an explicit access tag.
      if (access === undefined || !['yes', 'designated', 'permissive'].includes(access)) return null;
      kph = spec.openingSpeedKph;
    } else kph = base;
    if (spec.maxspeedFactor > 0) {
      const limit = parseMaxspeed(tags.maxspeed);
      if (limit !== null) kph = limit * spec.maxspeedFactor;
    }
  }
  if (spec.vehicle) {
    const weight = parseTonnes(tags.maxweight ?? tags['maxweight:hgv']);
    if (weight !== null && weight < spec.vehicle.weightTonnes) return null;
    const height = parseMetres(tags.maxheight);
    if (height !== null && height < spec.vehicle.heightMetres) return null;
  }
  kph = Math.min(kph, spec.maxKph);

  let forward = kph;
  let backward = kph;
  if (spec.obeysOneway) {
    const oneway = (spec.onewayKey !== undefined ? tags[spec.onewayKey] : undefined) ?? tags.oneway;
    const roundabout = tags.junction === 'roundabout' || tags.junction === 'circular';
    if (oneway !== undefined && ONEWAY_REVERSE.has(oneway)) forward = 0;
    else if (oneway !== undefined && ONEWAY_YES.has(oneway)) backward = 0;
    else if (oneway === 'reversible' || oneway === 'alternating') return null;
    else if (oneway !== 'no' && (roundabout || IMPLIED_ONEWAY.has(highway ?? ''))) backward = 0;
  }
  // Direction-specific access: `motor_vehicle:backward=no`, `bicycle:forward=yes`…
  const fwd = accessOf(spec, tags, ':forward');
  const bwd = accessOf(spec, tags, ':backward');
  if (fwd !== undefined) forward = spec.denied.has(fwd) ? 0 : forward || kph;
  if (bwd !== undefined) backward = spec.denied.has(bwd) ? 0 : backward || kph;
  const restricted = !ferry && access !== undefined && spec.restrictedAccess?.has(access) === true && spec.speeds[highway!] !== undefined;
  const result: WaySpeeds = { forwardKph: forward, backwardKph: backward, durationSeconds, restricted };
  spec.adjust?.(tags, result);
  if (result.forwardKph <= 0 && result.backwardKph <= 0) return null;
  return result;
}
