// Readers for structured values: dictionaries, metadata, JSON-encoded values and coordinates. Form bodies
// and query strings carry them as JSON strings; JSON bodies as objects.
import { InputError } from './input-error';
import type { LngLat, Metadata } from '../types';
import { rejectHostile } from './hostile';
import { isAbsent } from './scalars';

export function readJson(raw: unknown, param: string): unknown {
  if (isAbsent(raw)) return undefined;
  if (typeof raw !== 'string') return raw;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new InputError(param, `${param} must be valid JSON`);
  }
  // Form and query values decode here, after the request-wide check: the same rule applies inside them.
  rejectHostile({ [param]: value }, 'body');
  return value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function readDictionary(raw: unknown, param: string): Record<string, unknown> | undefined {
  const value = readJson(raw, param);
  if (value === undefined) return undefined;
  if (!isPlainObject(value)) throw new InputError(param, `${param} must be a dictionary (a JSON object)`);
  return value;
}

const MAX_METADATA_KEY_LENGTH = 128;
const MAX_METADATA_STRING_LENGTH = 1024;

/** Custom metadata: a dictionary of at most `maxKeys` keys whose values are strings, booleans or numbers. */
export function readMetadata(raw: unknown, param: string, maxKeys: number): Metadata | undefined {
  const dict = readDictionary(raw, param);
  if (dict === undefined) return undefined;
  const keys = Object.keys(dict);
  if (keys.length > maxKeys) throw new InputError(param, `${param} can have at most ${maxKeys} keys`);
  const out: Metadata = {};
  for (const key of keys) {
    const value = dict[key];
    if (key.length === 0 || key.length > MAX_METADATA_KEY_LENGTH) {
      throw new InputError(param, `${param} keys must be 1 to ${MAX_METADATA_KEY_LENGTH} characters`);
    }
    // Assigning it would set the prototype (and drop the value) instead of adding a key.
    if (key === '__proto__') throw new InputError(param, `${param} keys cannot be "__proto__"`);
    if (typeof value === 'string') {
      if (value.length > MAX_METADATA_STRING_LENGTH) {
        throw new InputError(`${param}.${key}`, `${param}.${key} must be at most ${MAX_METADATA_STRING_LENGTH} characters`);
      }
      out[key] = value;
    } else if (typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) {
      out[key] = value;
    } else {
      throw new InputError(`${param}.${key}`, `${param}.${key} must be a string, boolean or number`);
    }
  }
  return out;
}

/** Infers a filter value's type the way the spec asks: true/false → boolean, numeric → number. */
export function inferScalar(raw: string): string | number | boolean {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (/^[-+]?(\d+\.?\d*|\.\d+)$/.test(raw)) return Number(raw);
  return raw;
}

/** Collects `prefix[key]=value` entries (e.g. `metadata[plan]=pro`) from a query or form object. */
export function readBracketFilters(source: Record<string, unknown>, prefix: string): Metadata | undefined {
  const out: Metadata = {};
  let found = false;
  const open = `${prefix}[`;
  for (const [name, value] of Object.entries(source)) {
    if (!name.startsWith(open) || !name.endsWith(']')) continue;
    const key = name.slice(open.length, -1);
    if (!key) throw new InputError(name, `${name} needs a key between the brackets`);
    const text = Array.isArray(value) ? value[value.length - 1] : value;
    if (typeof text !== 'string') throw new InputError(name, `${name} must be a single value`);
    out[key] = inferScalar(text);
    found = true;
  }
  return found ? out : undefined;
}

export function validLatitude(lat: number): boolean {
  return Number.isFinite(lat) && lat >= -90 && lat <= 90;
}

export function validLongitude(lng: number): boolean {
  return Number.isFinite(lng) && lng >= -180 && lng <= 180;
}

/** "latitude,longitude" (query form) → [longitude, latitude] (service order). */
export function readLatLng(raw: unknown, param: string): LngLat | undefined {
  if (isAbsent(raw)) return undefined;
  if (typeof raw !== 'string') throw new InputError(param, `${param} must be a string "latitude,longitude"`);
  const parts = raw.split(',').map((p) => p.trim());
  const [lat, lng] = parts.map(Number);
  if (parts.length !== 2 || parts.some((p) => p === '') || !Number.isFinite(lat) || !Number.isFinite(lng)) {
    throw new InputError(param, `${param} must be "latitude,longitude"`);
  }
  if (!validLatitude(lat)) throw new InputError(param, `${param} latitude must be between -90 and 90`);
  if (!validLongitude(lng)) throw new InputError(param, `${param} longitude must be between -180 and 180`);
  return [lng, lat];
}

/** A `[longitude, latitude]` pair, as an array or its JSON string. */
export function readLngLatArray(raw: unknown, param: string): LngLat | undefined {
  const value = readJson(raw, param);
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length !== 2 || !value.every((n) => typeof n === 'number' && Number.isFinite(n))) {
    throw new InputError(param, `${param} must be [longitude,latitude]`);
  }
  const [lng, lat] = value as [number, number];
  if (!validLongitude(lng)) throw new InputError(param, `${param} longitude must be between -180 and 180`);
  if (!validLatitude(lat)) throw new InputError(param, `${param} latitude must be between -90 and 90`);
  return [lng, lat];
}

export interface LatLngListOptions {
  /** Most points accepted; the message names the limit. */
  max: number;
  min?: number;
}

/**
 * Pipe-delimited "latitude,longitude" points ("40.7,-73.9|40.8,-73.8") → [longitude, latitude] pairs. A bad
 * point is named by its position in the list.
 */
export function readLatLngList(raw: unknown, param: string, opts: LatLngListOptions): LngLat[] | undefined {
  if (isAbsent(raw)) return undefined;
  if (typeof raw !== 'string') throw new InputError(param, `${param} must be a string of "latitude,longitude" points separated by |`);
  // 40 characters is a generous point ("-89.123456789,-179.123456789" plus spaces); longer input is refused unread.
  if (raw.length > opts.max * 40) throw new InputError(param, `${param} can have at most ${opts.max} points`);
  const parts = raw.split('|');
  if (parts.length > opts.max) throw new InputError(param, `${param} can have at most ${opts.max} points`);
  if (parts.length < (opts.min ?? 1)) throw new InputError(param, `${param} needs at least ${opts.min} points`);
  return parts.map((part, i) => {
    let point: LngLat | undefined;
    try {
      point = readLatLng(part, param);
    } catch {
      point = undefined;
    }
    if (!point) {
      throw new InputError(param, `${param} point ${i + 1} ("${part.slice(0, 60)}") must be "latitude,longitude" with latitude -90 to 90 and longitude -180 to 180`);
    }
    return point;
  });
}
