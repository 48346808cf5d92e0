// How one environment variable's text becomes a value: each parser says what it accepts (for the start-up
// message and docs/configuration.md) and refuses anything else. config.ts pairs them with names.
import { parseDailyTime, type DailyTime } from '../core/geofence-sync/schedule';
import { parseIpRanges } from '../core/ip-ranges';

export interface EnvParser<T> {
  /** What the variable accepts, in words: "a whole number from 0 to 65535", "one of sqlite, postgres". */
  accepts: string;
  /** The value, or undefined when `raw` is not acceptable. */
  parse(raw: string): T | undefined;
}

export interface NumberRange {
  min?: number;
  max?: number;
}

function rangeWords({ min, max }: NumberRange): string {
  if (min !== undefined && max !== undefined) return ` from ${min} to ${max}`;
  if (min !== undefined) return ` of at least ${min}`;
  return max !== undefined ? ` of at most ${max}` : '';
}

function inRange(value: number, { min, max }: NumberRange): boolean {
  return (min === undefined || value >= min) && (max === undefined || value <= max);
}

/** Whole numbers only: "30s" or "1e3" are refused rather than guessed at. */
export function integer(range: NumberRange = { min: 0 }): EnvParser<number> {
  return {
    accepts: `a whole number${rangeWords(range)}`,
    parse: (raw) => {
      if (!/^\d+$/.test(raw)) return undefined;
      const value = Number(raw);
      return Number.isSafeInteger(value) && inRange(value, range) ? value : undefined;
    },
  };
}

export function decimal(range: NumberRange = { min: 0 }): EnvParser<number> {
  return {
    accepts: `a number${rangeWords(range)}`,
    parse: (raw) => {
      if (!/^\d+(\.\d+)?$/.test(raw)) return undefined;
      const value = Number(raw);
      return Number.isFinite(value) && inRange(value, range) ? value : undefined;
    },
  };
}

const TRUE_WORDS = new Set(['true', '1', 'yes', 'on']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'off']);

export const boolean: EnvParser<boolean> = {
  accepts: 'true or false (also 1/0, yes/no, on/off)',
  parse: (raw) => {
    const word = raw.toLowerCase();
    if (TRUE_WORDS.has(word)) return true;
    return FALSE_WORDS.has(word) ? false : undefined;
  },
};

export function oneOf<T extends string>(...values: T[]): EnvParser<T> {
  return {
    accepts: `one of ${values.join(', ')}`,
    parse: (raw) => (values as string[]).includes(raw) ? (raw as T) : undefined,
  };
}

/** Any text (paths, tokens, names). */
export const text: EnvParser<string> = { accepts: 'any text', parse: (raw) => raw };

/** Comma-separated entries; blanks dropped. */
export const list: EnvParser<string[]> = {
  accepts: 'a comma-separated list',
  parse: (raw) => raw.split(',').map((s) => s.trim()).filter((s) => s !== ''),
};

/** A size: 1048576, 512kb, 50mb, 1gb. */
export const bytes: EnvParser<number> = {
  accepts: 'a size such as 1048576, 512kb, 50mb or 1gb',
  parse: (raw) => {
    const m = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i.exec(raw);
    if (!m) return undefined;
    const unit = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 }[(m[2] ?? 'b').toLowerCase() as 'b' | 'kb' | 'mb' | 'gb'];
    return Math.floor(Number(m[1]) * unit);
  },
};

/** A URL with one of the given schemes (postgres:, redis: …). */
export function url(...schemes: string[]): EnvParser<string> {
  return {
    accepts: `a URL starting ${schemes.map((s) => `${s}//`).join(' or ')}`,
    parse: (raw) => {
      try {
        return schemes.includes(new URL(raw).protocol) ? raw : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

export const dailyTime: EnvParser<DailyTime> = {
  accepts: 'a UTC time of day such as 03:00',
  parse: (raw) => parseDailyTime(raw),
};

/** CIDR ranges, single addresses or wildcard forms, comma-separated. */
export const ipRanges: EnvParser<string[]> = {
  accepts: 'comma-separated CIDR ranges or addresses such as 10.0.0.0/8, 192.168.1.7',
  parse: (raw) => {
    const entries = list.parse(raw) ?? [];
    return parseIpRanges(entries).ok ? entries : undefined;
  },
};
