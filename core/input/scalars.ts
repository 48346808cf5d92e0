// Readers for single query/body values. Query and form values arrive as strings, JSON bodies as typed
// values, so every reader accepts both. Each returns undefined for an absent value (undefined, null or
// an empty string: the JS SDK sends nulls for unset fields) and throws InputError naming the parameter.
import { InputError } from './input-error';

export function isAbsent(raw: unknown): raw is undefined | null | '' {
  return raw === undefined || raw === null || raw === '';
}

export function required<T>(value: T | undefined, param: string): T {
  if (value === undefined) throw new InputError(param, `${param} is required`);
  return value;
}

export interface StringOptions {
  maxLength?: number;
  pattern?: RegExp;
  patternMessage?: string;
}

export function readString(raw: unknown, param: string, opts: StringOptions = {}): string | undefined {
  if (isAbsent(raw)) return undefined;
  if (typeof raw === 'number' || typeof raw === 'boolean') raw = String(raw);
  if (typeof raw !== 'string') throw new InputError(param, `${param} must be a string`);
  const maxLength = opts.maxLength ?? 1024;
  if (raw.length > maxLength) throw new InputError(param, `${param} must be at most ${maxLength} characters`);
  if (opts.pattern && !opts.pattern.test(raw)) {
    throw new InputError(param, opts.patternMessage ?? `${param} has an invalid format`);
  }
  return raw;
}

const TRUE_WORDS = new Set(['true', '1', 'yes']);
const FALSE_WORDS = new Set(['false', '0', 'no']);

export function readBoolean(raw: unknown, param: string): boolean | undefined {
  if (isAbsent(raw)) return undefined;
  if (typeof raw === 'boolean') return raw;
  if (raw === 1 || raw === 0) return raw === 1;
  if (typeof raw === 'string') {
    const word = raw.trim().toLowerCase();
    if (TRUE_WORDS.has(word)) return true;
    if (FALSE_WORDS.has(word)) return false;
  }
  throw new InputError(param, `${param} must be a boolean (true or false)`);
}

export interface NumberOptions {
  min?: number;
  max?: number;
  /** Strict lower bound, for values that must be positive. */
  greaterThan?: number;
  integer?: boolean;
}

export function readNumber(raw: unknown, param: string, opts: NumberOptions = {}): number | undefined {
  if (isAbsent(raw)) return undefined;
  let value: number;
  if (typeof raw === 'number') value = raw;
  else if (typeof raw === 'string' && raw.trim() !== '' && /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(raw.trim())) {
    value = Number(raw.trim());
  } else {
    throw new InputError(param, `${param} must be a number`);
  }
  if (!Number.isFinite(value)) throw new InputError(param, `${param} must be a finite number`);
  if (opts.integer && !Number.isInteger(value)) throw new InputError(param, `${param} must be an integer`);
  const { min, max, greaterThan } = opts;
  if (min !== undefined && max !== undefined && (value < min || value > max)) {
    throw new InputError(param, `${param} must be between ${min} and ${max}`);
  }
  if (min !== undefined && value < min) throw new InputError(param, `${param} must be at least ${min}`);
  if (max !== undefined && value > max) throw new InputError(param, `${param} must be at most ${max}`);
  if (greaterThan !== undefined && !(value > greaterThan)) {
    throw new InputError(param, `${param} must be greater than ${greaterThan}`);
  }
  return value;
}

export function readEnum<T extends string>(raw: unknown, param: string, values: readonly T[]): T | undefined {
  if (isAbsent(raw)) return undefined;
  if (typeof raw === 'string' && (values as readonly string[]).includes(raw)) return raw as T;
  throw new InputError(param, `${param} must be one of ${values.join(', ')}`);
}

const ISO_DATETIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ]([\d:.]+)(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * A date ("2026-01-02") or any ISO 8601 datetime; epoch milliseconds are accepted from JSON bodies.
 * A datetime without an offset is UTC: JavaScript would read it in the server's own zone. Impossible days
 * ("2026-02-30") are refused rather than rolled over into the next month.
 */
export function readDatetime(raw: unknown, param: string): Date | undefined {
  if (isAbsent(raw)) return undefined;
  let date: Date | undefined;
  if (typeof raw === 'number' && Number.isFinite(raw)) date = new Date(raw);
  else if (typeof raw === 'string') {
    const m = ISO_DATETIME.exec(raw.trim());
    const [year, month, day] = m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [0, 0, 0];
    const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
    if (m && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth) {
      date = new Date(m[4] === undefined ? `${m[1]}-${m[2]}-${m[3]}` : `${m[1]}-${m[2]}-${m[3]}T${m[4]}${m[5] ?? 'Z'}`);
    }
  }
  if (!date || Number.isNaN(date.getTime())) {
    throw new InputError(param, `${param} must be a date or an ISO 8601 datetime`);
  }
  return date;
}

/** Comma-separated string or array of strings; blanks dropped. */
export function readList(raw: unknown, param: string): string[] | undefined {
  if (isAbsent(raw)) return undefined;
  const parts = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : undefined;
  if (!parts || parts.some((p) => typeof p !== 'string' && typeof p !== 'number')) {
    throw new InputError(param, `${param} must be a comma-separated list`);
  }
  const list = parts.map((p) => String(p).trim()).filter((p) => p !== '');
  return list.length ? list : undefined;
}
