// Input rules of a geofence write, shared by the HTTP upsert (spec: Geofences endpoints) and the CSV
// import (spec: Geofence bulk import file). One step per field, in the order callers fix them; each
// step reads its raw value with the shared param readers and may fail with an InputError. The API
// answers the first failure; the importer reports every failure of a row, so steps never stop the
// walk, and a step whose inputs failed earlier stays quiet rather than repeating the same problem.
import { InputError } from './input-error';
import { isAbsent, readBoolean, readDatetime, readEnum, readList, readNumber, readString, required } from './scalars';
import { readJson, readLngLatArray, readMetadata } from './structured';
import {
  circleGeometry,
  MAX_RING_COORDINATES,
  MIN_RING_COORDINATES,
  polygonApproxRadius,
  polygonCentroid,
  validateRing,
} from '../geofence-shape';
import { parseIpRanges } from '../ip-ranges';
import { parseOperatingHours } from '../operating-hours';
import type { Geofence, GeofenceType, LngLat, Point, Polygon, TravelMode } from '../types';

/**
 * Everything a caller supplies for a geofence: the stored Geofence without what the server adds (ids,
 * project, environment, time zone, timestamps). `tag` and `externalId` are required in CSV rows; for the
 * API the path may carry them instead. `address` is kept as given: with coordinates present it is not
 * geocoded (coordinates win).
 */
export type GeofenceInput = Omit<Geofence, '_id' | 'projectId' | 'live' | 'tag' | 'externalId' | 'timeZone' | 'createdAt' | 'updatedAt'> & {
  tag?: string;
  externalId?: string;
  address?: string;
};

/** A known place's geometry for `placeId` (api/places), as the geofence takes it. */
export type PlaceShape = Pick<Geofence, 'type' | 'geometry' | 'geometryCenter' | 'geometryRadius'>;

export interface GeofenceInputOptions {
  /** 'csv' rows must carry tag and externalId; the API takes them from the path or body. */
  mode: 'api' | 'csv';
  /** Finds a place by `placeId`; without it (or for an unknown id) placeId needs coordinates too. */
  placeShape?: (placeId: string) => PlaceShape | undefined;
  /**
   * The outline of an isochrone computed before parsing (GeofenceService.prepareBody), or why there is
   * none; without it isochrones are refused.
   */
  isochroneShape?: (center: LngLat, mode: string, minutes: number) => LngLat[] | string | undefined;
}

export interface GeofenceInputError {
  param: string;
  message: string;
}

export const GEOFENCE_TYPES: readonly GeofenceType[] = ['circle', 'polygon', 'isochrone'];

/** Travel time of isochrone geofences, minutes: an hour's reach is already a metro area. */
export const MIN_ISOCHRONE_MINUTES = 1;
export const MAX_ISOCHRONE_MINUTES = 60;
export const TRAVEL_MODES: readonly TravelMode[] = ['car', 'truck', 'foot', 'bike'];
export const MIN_CIRCLE_RADIUS_M = 10;
export const MAX_CIRCLE_RADIUS_M = 10000;
export const MAX_GEOFENCE_METADATA_KEYS = 16;

/**
 * What is known while the steps run; every field is set only when its step succeeded. The geometry is
 * assembled at the end from the raw `point` / `ring` and `radius`.
 */
type Draft = Partial<Omit<GeofenceInput, 'geometry' | 'geometryCenter' | 'geometryRadius'>> & {
  /** Circle centre or isochrone destination. */
  point?: LngLat;
  ring?: LngLat[];
  /** Set when the `coordinates` step failed, so later steps do not also say it is missing. */
  coordinatesInvalid?: boolean;
  /** The geometry of the known place `placeId` names: it replaces coordinates and address. */
  place?: PlaceShape;
  radius?: number;
};

type Raw = Record<string, unknown>;
type Step = (raw: Raw, draft: Draft, opts: GeofenceInputOptions) => void;

function readType(raw: unknown): GeofenceType | undefined {
  // Spreadsheets capitalise freely ("Circle"); the stored value is the lower-case name.
  const value = typeof raw === 'string' ? raw.trim().toLowerCase() : raw;
  return readEnum(value, 'type', GEOFENCE_TYPES);
}

/**
 * A polygon's outer ring: a list of [lng, lat] (or its JSON string). A GeoJSON-style list holding
 * one ring ([[[lng, lat], ...]]) is unwrapped, since callers often paste a geometry's coordinates.
 */
function readRing(raw: unknown, param: string): LngLat[] | undefined {
  let value = readJson(raw, param);
  if (value === undefined) return undefined;
  if (Array.isArray(value) && value.length === 1 && Array.isArray(value[0]) && Array.isArray(value[0][0])) {
    value = value[0];
  }
  const problem = validateRing(value);
  if (problem) throw new InputError(param, `${param} ${problem}`);
  // validateRing checked every element is [number, number, ...]; drop any altitude.
  return (value as number[][]).map((c): LngLat => [c[0], c[1]]);
}

const NUMERIC = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;

/** ["-73.9", "40.7"] → [-73.9, 40.7], nested: some clients send coordinate numbers as strings. */
function numbersFromNumericStrings(value: unknown): unknown {
  if (typeof value === 'string' && NUMERIC.test(value)) return Number(value);
  if (Array.isArray(value)) return value.map(numbersFromNumericStrings);
  return value;
}

const STEPS: readonly Step[] = [
  (raw, d) => {
    d.description = required(readString(raw.description, 'description'), 'description');
  },
  (raw, d) => {
    d.type = required(readType(raw.type), 'type');
  },
  (raw, d, opts) => {
    const tag = readString(raw.tag, 'tag');
    d.tag = opts.mode === 'csv' ? required(tag, 'tag') : tag;
  },
  (raw, d, opts) => {
    const externalId = readString(raw.externalId, 'externalId');
    d.externalId = opts.mode === 'csv' ? required(externalId, 'externalId') : externalId;
  },
  (raw, d) => {
    if (isAbsent(raw.coordinates) || d.type === undefined) return;
    d.coordinatesInvalid = true;
    const coordinates = numbersFromNumericStrings(readJson(raw.coordinates, 'coordinates'));
    if (d.type === 'polygon') d.ring = readRing(coordinates, 'coordinates');
    else d.point = readLngLatArray(coordinates, 'coordinates');
    d.coordinatesInvalid = false;
  },
  (raw, d) => {
    d.address = readString(raw.address, 'address');
  },
  (raw, d, opts) => {
    d.placeId = readString(raw.placeId, 'placeId', { maxLength: 256 });
    // A known place's geometry wins over coordinates and address (spec); an unknown id is kept as given.
    if (d.placeId !== undefined && d.type !== 'isochrone') d.place = opts.placeShape?.(d.placeId);
  },
  (_raw, d) => {
    // Where the geometry comes from: a known place; else coordinates when given (they win over address);
    // otherwise an engine that does not exist yet.
    if (d.place || d.type === undefined || d.coordinatesInvalid || d.point || d.ring) return;
    if (d.type === 'polygon') {
      throw new InputError(
        'coordinates',
        `coordinates is required for polygon geofences (a closed ring of ${MIN_RING_COORDINATES} to ${MAX_RING_COORDINATES} [longitude,latitude] pairs)`,
      );
    }
    if (d.placeId !== undefined) {
      throw new InputError('placeId', `placeId "${d.placeId.slice(0, 64)}" is not a known place (imported extracts); give coordinates as well`);
    }
    if (d.address !== undefined) {
      throw new InputError('address', 'address needs a geocoder to find the centre; none is configured, so give coordinates as well');
    }
    throw new InputError('coordinates', 'coordinates is required ([longitude,latitude] of the centre)');
  },
  (raw, d) => {
    if (d.place) return;
    if (d.type === 'circle') {
      const radius = readNumber(raw.radius, 'radius', { min: MIN_CIRCLE_RADIUS_M, max: MAX_CIRCLE_RADIUS_M });
      if (radius === undefined) {
        throw new InputError('radius', `radius is required for circle geofences (meters, ${MIN_CIRCLE_RADIUS_M} to ${MAX_CIRCLE_RADIUS_M})`);
      }
      d.radius = radius;
    } else if (d.type === 'isochrone') {
      const minutes = readNumber(raw.radius, 'radius', { min: MIN_ISOCHRONE_MINUTES, max: MAX_ISOCHRONE_MINUTES });
      if (minutes === undefined) throw new InputError('radius', `radius is required for isochrone geofences (minutes, ${MIN_ISOCHRONE_MINUTES} to ${MAX_ISOCHRONE_MINUTES})`);
      d.radius = minutes;
    }
    // Polygons ignore radius (spec), so a stray value in a mixed CSV is not an error.
  },
  (raw, d) => {
    const mode = readEnum(typeof raw.mode === 'string' ? raw.mode.trim().toLowerCase() : raw.mode, 'mode', TRAVEL_MODES);
    if (d.type === 'isochrone') d.mode = required(mode, 'mode');
    // Only isochrones have a travel mode; for other types the value is checked but not kept.
  },
  (_raw, d, opts) => {
    if (d.type !== 'isochrone' || !d.point || d.radius === undefined || !d.mode) return;
    const shape = opts.isochroneShape?.(d.point, d.mode, d.radius);
    if (shape === undefined) throw new InputError('type', 'isochrone geofences need a road network (an imported extract or a configured routing engine)');
    if (typeof shape === 'string') throw new InputError('coordinates', shape);
    d.ring = shape;
  },
  (raw, d) => {
    d.metadata = readMetadata(raw.metadata, 'metadata', MAX_GEOFENCE_METADATA_KEYS);
  },
  (raw, d) => {
    d.userId = readString(raw.userId, 'userId');
  },
  (raw, d) => {
    d.userIds = readList(raw.userIds, 'userIds');
  },
  (raw, d) => {
    if (isAbsent(raw.ip)) return;
    const parsed = parseIpRanges(raw.ip);
    if (!parsed.ok) throw new InputError('ip', parsed.message);
    // An empty list would read as "no address allowed"; the spec means "unset = no restriction".
    d.ip = parsed.value.length > 0 ? parsed.value : undefined;
  },
  (raw, d) => {
    d.tripApproachingThreshold = readNumber(raw.tripApproachingThreshold, 'tripApproachingThreshold', { greaterThan: 0 });
  },
  (raw, d) => {
    d.dwellThreshold = readNumber(raw.dwellThreshold, 'dwellThreshold', { greaterThan: 0 });
  },
  (raw, d) => {
    d.stopDetection = readBoolean(raw.stopDetection, 'stopDetection');
  },
  (raw, d) => {
    d.enabled = readBoolean(raw.enabled, 'enabled');
  },
  (raw, d) => {
    if (isAbsent(raw.operatingHours)) return;
    const parsed = parseOperatingHours(raw.operatingHours);
    if (!parsed.ok) throw new InputError('operatingHours', parsed.message);
    // {} would make events carry currentlyOperating for a geofence that is always open.
    d.operatingHours = Object.keys(parsed.value).length > 0 ? parsed.value : undefined;
  },
  (raw, d) => {
    d.disableAfter = readDatetime(raw.disableAfter, 'disableAfter')?.toISOString();
  },
  (raw, d) => {
    d.deleteAfter = readDatetime(raw.deleteAfter, 'deleteAfter')?.toISOString();
  },
];

const OPTIONAL_FIELDS = [
  'tag',
  'externalId',
  'mode',
  'metadata',
  'userId',
  'userIds',
  'ip',
  'tripApproachingThreshold',
  'dwellThreshold',
  'stopDetection',
  'operatingHours',
  'disableAfter',
  'deleteAfter',
  'placeId',
  'address',
] as const satisfies ReadonlyArray<keyof Draft & keyof GeofenceInput>;

function geometryOf(d: Draft): Pick<GeofenceInput, 'geometry' | 'geometryCenter' | 'geometryRadius'> | undefined {
  if (d.place) return { geometry: d.place.geometry, geometryCenter: d.place.geometryCenter, geometryRadius: d.place.geometryRadius };
  if (d.type === 'polygon' && d.ring) {
    const center = polygonCentroid(d.ring);
    return {
      geometry: { type: 'Polygon', coordinates: [d.ring] },
      geometryCenter: { type: 'Point', coordinates: center },
      geometryRadius: polygonApproxRadius(d.ring, center),
    };
  }
  if (d.type === 'isochrone' && d.point && d.ring && d.radius !== undefined) {
    return {
      geometry: { type: 'Polygon', coordinates: [d.ring] },
      geometryCenter: { type: 'Point', coordinates: d.point },
      geometryRadius: d.radius,
    };
  }
  if (d.type === 'circle' && d.point && d.radius !== undefined) {
    return {
      geometry: circleGeometry(d.point, d.radius),
      geometryCenter: { type: 'Point', coordinates: d.point },
      geometryRadius: d.radius,
    };
  }
  return undefined;
}

/**
 * Runs every field rule and returns all problems of `raw` (one per field at most), or the parsed
 * input when there are none. Non-InputError exceptions are bugs and propagate.
 */
export function collectGeofenceInputErrors(
  raw: Record<string, unknown>,
  opts: GeofenceInputOptions,
): { value?: GeofenceInput; errors: GeofenceInputError[] } {
  const draft: Draft = {};
  const errors: GeofenceInputError[] = [];
  for (const step of STEPS) {
    try {
      step(raw, draft, opts);
    } catch (err) {
      if (!(err instanceof InputError)) throw err;
      errors.push({ param: err.param, message: err.message });
    }
  }
  if (errors.length > 0) return { errors };
  const geometry = geometryOf(draft);
  // Every path that leaves the geometry unknown has thrown above; reaching here without one is a bug.
  if (!geometry || draft.description === undefined || draft.type === undefined) {
    throw new Error('geofence-input: steps passed but the geometry is incomplete');
  }
  const value: GeofenceInput = {
    description: draft.description,
    // A place's outline makes a polygon, a place without one a circle, whatever type was asked.
    type: draft.place?.type ?? draft.type,
    ...geometry,
    enabled: draft.enabled ?? true,
  };
  // Optional fields only when set, so stored documents and responses carry no empty keys. Assigned
  // one by one rather than deleted afterwards: `delete` turns V8 objects into slow dictionaries.
  for (const key of OPTIONAL_FIELDS) {
    const v = draft[key];
    if (v !== undefined) (value as unknown as Record<string, unknown>)[key] = v;
  }
  return { value, errors };
}

/** The upsert body rules: the parsed input, or an InputError for the first problem found. */
export function parseGeofenceInput(raw: Record<string, unknown>, opts: GeofenceInputOptions): GeofenceInput {
  const { value, errors } = collectGeofenceInputErrors(raw, opts);
  if (errors.length > 0) throw new InputError(errors[0].param, errors[0].message);
  if (!value) throw new Error('geofence-input: no errors and no value');
  return value;
}
