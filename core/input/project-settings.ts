// Reading and validating project settings (the spec's "project settings": stop detection, buffers,
// dwell, operating-hours suppression, trip thresholds, feature switches).
import { InputError } from './input-error';
import { readBoolean, readNumber } from './scalars';
import { DEFAULT_PROJECT_SETTINGS, type ProjectSettings } from '../types';

type SettingReader = (raw: unknown, param: string) => boolean | number | undefined;

const READERS: Record<keyof ProjectSettings, SettingReader> = {
  stopDetection: readBoolean,
  bufferEntries: readBoolean,
  bufferExits: readBoolean,
  dwellEvents: readBoolean,
  operatingHoursSuppression: readBoolean,
  tripApproachingThreshold: (raw, param) => readNumber(raw, param, { min: 0, max: 1440 }),
  tripExpirationHours: (raw, param) => readNumber(raw, param, { greaterThan: 0, max: 8760 }),
  places: readBoolean,
  regions: readBoolean,
  fraud: readBoolean,
  fraudBlocking: readBoolean,
  locationHistoryDays: (raw, param) => readNumber(raw, param, { min: 0, max: 3650 }),
};

export const PROJECT_SETTING_NAMES = Object.keys(READERS) as Array<keyof ProjectSettings>;

/** Stored settings merged over the defaults; unknown stored keys are ignored. */
export function projectSettings(stored: Record<string, unknown>): ProjectSettings {
  const out: ProjectSettings = { ...DEFAULT_PROJECT_SETTINGS };
  for (const name of PROJECT_SETTING_NAMES) {
    const value = stored[name];
    if (typeof value === typeof DEFAULT_PROJECT_SETTINGS[name]) (out as unknown as Record<string, unknown>)[name] = value;
  }
  return out;
}

/** Validates a partial update; unknown names are rejected so typos do not pass silently. */
export function readSettingsPatch(body: Record<string, unknown>): Partial<ProjectSettings> {
  const patch: Record<string, boolean | number> = {};
  for (const [name, raw] of Object.entries(body)) {
    // Own keys only: names like "constructor" or "__proto__" would otherwise find Object.prototype members.
    const reader = Object.hasOwn(READERS, name) ? READERS[name as keyof ProjectSettings] : undefined;
    if (!reader) throw new InputError(name, `${name} is not a project setting; known settings: ${PROJECT_SETTING_NAMES.join(', ')}`);
    const value = reader(raw, name);
    if (value !== undefined) patch[name] = value;
  }
  return patch as Partial<ProjectSettings>;
}
