// Readers for the parameters the routing endpoints share (spec: Routing, "Common").
import type { AvoidOption, RouterMode } from '../../../ports/router';
import { BadRequest } from '../../http/errors';
import { readDatetime, readEnum, readList } from '../../http/params';
import { GEOMETRY_FORMATS, type GeometryFormat } from './route-format';
import type { Units } from './route-units';
import { LANGUAGES, type Language } from './step-instructions';

export const MODES: readonly RouterMode[] = ['car', 'truck', 'foot', 'bike'];
const AVOID: readonly AvoidOption[] = ['tolls', 'highways', 'ferries', 'borderCrossings'];

export function readUnits(raw: unknown): Units {
  return readEnum(raw, 'units', ['metric', 'imperial'] as const) ?? 'imperial';
}

export function readMode(raw: unknown): RouterMode | undefined {
  return readEnum(raw, 'mode', MODES);
}

/** `avoid`: comma-separated; the matrix accepts only tolls, highways and ferries. */
export function readAvoid(raw: unknown, allowed: readonly AvoidOption[] = AVOID): AvoidOption[] | undefined {
  const list = readList(raw, 'avoid');
  if (!list) return undefined;
  for (const item of list) {
    if (!(allowed as readonly string[]).includes(item)) throw new BadRequest('avoid', `avoid must be a comma-separated list of ${allowed.join(', ')}; got "${item.slice(0, 40)}"`);
  }
  return [...new Set(list)] as AvoidOption[];
}

export const MATRIX_AVOID: readonly AvoidOption[] = ['tolls', 'highways', 'ferries'];

export function readGeometryFormat(raw: unknown): GeometryFormat | undefined {
  return readEnum(raw, 'geometry', GEOMETRY_FORMATS);
}

export function readLang(raw: unknown): Language {
  return readEnum(raw, 'lang', LANGUAGES) ?? 'en';
}

/**
 * `departureTime`: an ISO 8601 datetime (or "now"). Validated and otherwise unused: no traffic data exists
 * offline, so the answer is the same at any time (docs/routing.md).
 */
export function readDepartureTime(raw: unknown): Date | undefined {
  if (raw === 'now') return undefined;
  const date = readDatetime(raw, 'departureTime');
  if (date && (date.getUTCFullYear() < 1970 || date.getUTCFullYear() > 2200)) {
    throw new BadRequest('departureTime', 'departureTime must be between 1970 and 2200');
  }
  return date;
}
