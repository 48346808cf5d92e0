// Geofence `ip` restrictions: parsing the ranges callers write and matching a request's address.
//
// Every address, IPv4 or IPv6, is held as 128 bits in four signed 32-bit words, IPv4 as its
// IPv4-mapped IPv6 form (::ffff:a.b.c.d, RFC 4291 §2.5.5.2). One representation means one match
// loop, and a client seen as "::ffff:1.2.3.4" (what a dual-stack socket reports) matches IPv4
// ranges without a special case. An IPv4 range a.b.c.d/n is the mapped range /(96+n).

export type IpRangesResult = { ok: true; value: string[] } | { ok: false; message: string };

type Words = [number, number, number, number];

// ---------------------------------------------------------------------------------------------
// Addresses

const IPV4_SHAPE = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;
const HEX_GROUP = /^[0-9a-f]{1,4}$/;

/** IPv4 dotted quad → unsigned 32-bit value, or undefined. Octets with leading zeros are refused:
 * some parsers read "010" as octal (8), others as decimal, so its meaning is ambiguous. */
function parseIpv4(text: string): number | undefined {
  if (!IPV4_SHAPE.test(text)) return undefined;
  let value = 0;
  for (const part of text.split('.')) {
    if (part.length > 1 && part[0] === '0') return undefined;
    const octet = Number(part);
    if (octet > 255) return undefined;
    value = value * 256 + octet;
  }
  return value;
}

function mappedWords(v4: number): Words {
  return [0, 0, 0xffff, v4 | 0];
}

/** IPv6 text (compressed forms and an embedded IPv4 tail allowed, no zone) → eight 16-bit groups. */
function parseIpv6Groups(text: string): number[] | undefined {
  const lower = text.toLowerCase();
  if (lower.length < 2 || lower.length > 45) return undefined;
  const halves = lower.split('::');
  if (halves.length > 2) return undefined;
  const parseSide = (side: string, allowV4Tail: boolean): number[] | undefined => {
    if (side === '') return [];
    const parts = side.split(':');
    const groups: number[] = [];
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i];
      if (allowV4Tail && i === parts.length - 1 && part.includes('.')) {
        const v4 = parseIpv4(part);
        if (v4 === undefined) return undefined;
        groups.push(Math.floor(v4 / 65536), v4 % 65536);
      } else if (HEX_GROUP.test(part)) {
        groups.push(parseInt(part, 16));
      } else {
        return undefined;
      }
    }
    return groups;
  };
  if (halves.length === 1) {
    const groups = parseSide(lower, true);
    return groups && groups.length === 8 ? groups : undefined;
  }
  const head = parseSide(halves[0], false);
  const tail = parseSide(halves[1], true);
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  // "::" stands for at least one zero group.
  if (missing < 1) return undefined;
  return [...head, ...new Array<number>(missing).fill(0), ...tail];
}

function groupsToWords(g: number[]): Words {
  return [(g[0] << 16) | g[1], (g[2] << 16) | g[3], (g[4] << 16) | g[5], (g[6] << 16) | g[7]];
}

function wordsToGroups(w: Words): number[] {
  const g: number[] = [];
  for (const word of w) g.push((word >>> 16) & 0xffff, word & 0xffff);
  return g;
}

function formatIpv4(v4: number): string {
  const u = v4 >>> 0;
  return `${u >>> 24}.${(u >>> 16) & 255}.${(u >>> 8) & 255}.${u & 255}`;
}

function isMapped(w: Words): boolean {
  return w[0] === 0 && w[1] === 0 && w[2] === 0xffff;
}

/** RFC 5952 text: lower case, no leading zeros, the longest run (≥ 2) of zero groups as "::",
 * and mapped IPv4 addresses as ::ffff:a.b.c.d. */
function formatIpv6(w: Words): string {
  if (isMapped(w)) return `::ffff:${formatIpv4(w[3])}`;
  const g = wordsToGroups(w);
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (g[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = g.map((x) => x.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

interface ParsedAddress {
  words: Words;
  version: 4 | 6;
}

function parseAddress(text: string): ParsedAddress | undefined {
  const v4 = parseIpv4(text);
  if (v4 !== undefined) return { words: mappedWords(v4), version: 4 };
  if (!text.includes(':')) return undefined;
  const groups = parseIpv6Groups(text);
  return groups ? { words: groupsToWords(groups), version: 6 } : undefined;
}

// ---------------------------------------------------------------------------------------------
// Ranges

interface Range {
  /** Network words, already masked. */
  network: Words;
  mask: Words;
  /** Normalised text. */
  text: string;
}

function maskWords(prefix: number): Words {
  const mask: Words = [0, 0, 0, 0];
  for (let k = 0; k < 4; k++) {
    const bits = Math.max(0, Math.min(32, prefix - 32 * k));
    // `-1 << 32` is -1 in JS (shift counts wrap), hence the explicit cases.
    mask[k] = bits === 0 ? 0 : bits === 32 ? -1 : (-1 << (32 - bits)) | 0;
  }
  return mask;
}

function applyMask(words: Words, mask: Words): Words {
  return [words[0] & mask[0], words[1] & mask[1], words[2] & mask[2], words[3] & mask[3]];
}

const PREFIX_DIGITS = /^\d{1,3}$/;

/** One range as written → Range, or a reason (completing "… is not valid: <reason>"). */
function parseRange(entry: string): Range | string {
  const slash = entry.indexOf('/');
  if (slash >= 0) {
    const addressText = entry.slice(0, slash);
    const prefixText = entry.slice(slash + 1);
    const address = parseAddress(addressText);
    if (!address) return `${JSON.stringify(addressText)} is not an IPv4 or IPv6 address`;
    const maxPrefix = address.version === 4 ? 32 : 128;
    const prefix = PREFIX_DIGITS.test(prefixText) ? Number(prefixText) : Number.NaN;
    if (!(prefix >= 0 && prefix <= maxPrefix)) {
      return `the prefix length of an IPv${address.version} CIDR range must be a whole number from 0 to ${maxPrefix}`;
    }
    const bits = address.version === 4 ? prefix + 96 : prefix;
    const mask = maskWords(bits);
    const network = applyMask(address.words, mask);
    const networkText = address.version === 4 ? formatIpv4(network[3]) : formatIpv6(network);
    return { network, mask, text: `${networkText}/${prefix}` };
  }
  if (entry.endsWith('.*')) {
    const v4 = parseIpv4(`${entry.slice(0, -2)}.0`);
    if (v4 === undefined) return 'a wildcard range must be three IPv4 parts followed by * (e.g. 10.1.2.*)';
    const mask = maskWords(120);
    const network = applyMask(mappedWords(v4), mask);
    return { network, mask, text: `${formatIpv4(network[3]).slice(0, -2)}.*` };
  }
  if (entry.includes('*')) return 'only the last part of an IPv4 address may be * (e.g. 10.1.2.*)';
  const address = parseAddress(entry);
  if (!address) {
    if (/(^|\.)0\d/.test(entry) && IPV4_SHAPE.test(entry)) return 'IPv4 parts must not have leading zeros';
    return 'not an IPv4 or IPv6 address, a.b.c.* wildcard or CIDR range';
  }
  const mask = maskWords(128);
  const text = address.version === 4 ? formatIpv4(address.words[3]) : formatIpv6(address.words);
  return { network: address.words, mask, text };
}

function showValue(value: unknown): string {
  const json = JSON.stringify(value);
  return json === undefined ? typeof value : json;
}

/** Entries as written: a comma-separated string or a list (whose items may themselves hold commas). */
function splitEntries(value: unknown): string[] | string {
  const items = typeof value === 'string' ? [value] : Array.isArray(value) ? value : undefined;
  if (!items) return `ip must be a comma-separated string or a list of IP ranges; got ${showValue(value)}`;
  const entries: string[] = [];
  for (let i = 0; i < items.length; i++) {
    const item: unknown = items[i];
    if (typeof item !== 'string') return `ip item ${i + 1} must be a string; got ${showValue(item)}`;
    for (const part of item.split(',')) {
      const trimmed = part.trim();
      // Empty entries (a trailing comma, "a,,b") carry no range; spreadsheets produce them.
      if (trimmed !== '') entries.push(trimmed);
    }
  }
  return entries;
}

/**
 * Parses geofence IP ranges: a comma-separated string or a list of single addresses (IPv4 or
 * IPv6), IPv4 wildcards with the last part `*` (`10.1.2.*`) or CIDR ranges (IPv4 /0–32, IPv6
 * /0–128). Out: normalised text (IPv6 per RFC 5952, CIDR host bits cleared), duplicates dropped.
 * An empty string or list gives an empty list; callers treat that as "no restriction".
 *
 * @example parseIpRanges('10.1.2.*, 2001:DB8:0:0::1/64') // → { ok: true, value: ['10.1.2.*', '2001:db8::/64'] }
 */
export function parseIpRanges(value: unknown): IpRangesResult {
  const entries = splitEntries(value);
  if (typeof entries === 'string') return { ok: false, message: entries };
  const out: string[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < entries.length; i++) {
    const range = parseRange(entries[i]);
    if (typeof range === 'string') {
      const where = entries.length === 1 ? 'ip' : `ip entry ${i + 1}`;
      return { ok: false, message: `${where} ${JSON.stringify(entries[i])} is not valid: ${range}` };
    }
    if (!seen.has(range.text)) {
      seen.add(range.text);
      out.push(range.text);
    }
  }
  return { ok: true, value: out };
}

// ---------------------------------------------------------------------------------------------
// Matching

/** Flat [network0..3, mask0..3] per range, for a tight loop. */
type CompiledRanges = Int32Array;

function compileRanges(entries: readonly string[]): CompiledRanges {
  const ranges: Range[] = [];
  for (const entry of entries) {
    for (const part of entry.split(',')) {
      const trimmed = part.trim();
      if (trimmed === '') continue;
      const range = parseRange(trimmed);
      // Stored ranges were validated on write; one unreadable entry must not disable the others.
      if (typeof range !== 'string') ranges.push(range);
    }
  }
  const flat = new Int32Array(ranges.length * 8);
  ranges.forEach((r, i) => {
    flat.set(r.network, i * 8);
    flat.set(r.mask, i * 8 + 4);
  });
  return flat;
}

// Geofences are immutable values once stored, so their range arrays can key the cache.
const compiledByArray = new WeakMap<readonly string[], CompiledRanges>();
const compiledByString = new Map<string, CompiledRanges>();
// Bounds memory when callers pass many distinct strings; recompiling is cheap.
const MAX_STRING_CACHE = 1024;

function compiledFor(ranges: readonly string[] | string): CompiledRanges {
  if (typeof ranges === 'string') {
    let c = compiledByString.get(ranges);
    if (!c) {
      if (compiledByString.size >= MAX_STRING_CACHE) compiledByString.clear();
      c = compileRanges([ranges]);
      compiledByString.set(ranges, c);
    }
    return c;
  }
  let c = compiledByArray.get(ranges);
  if (!c) {
    c = compileRanges(ranges);
    compiledByArray.set(ranges, c);
  }
  return c;
}

// One location update checks many geofences against one client address.
let lastIpText: string | undefined;
let lastIpWords: Words | undefined;

function clientWords(ip: string): Words | undefined {
  if (ip === lastIpText) return lastIpWords;
  let text = ip.trim();
  // Link-local addresses may carry a zone ("fe80::1%eth0"); the zone does not take part in matching.
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  lastIpText = ip;
  lastIpWords = parseAddress(text)?.words;
  return lastIpWords;
}

/**
 * True when the client address `ip` (IPv4, IPv6, or IPv4-mapped IPv6 such as ::ffff:1.2.3.4) lies
 * in one of `ranges` (parsed ranges as stored, or a comma-separated string of them). Compiled ranges
 * are cached per array / string, so repeated calls only run the match loop. An unreadable `ip` or an
 * empty list matches nothing: callers skip the check when a geofence has no restriction.
 */
export function ipMatchesAny(ip: string, ranges: readonly string[] | string): boolean {
  const w = clientWords(ip);
  if (!w) return false;
  const c = compiledFor(ranges);
  const w0 = w[0];
  const w1 = w[1];
  const w2 = w[2];
  const w3 = w[3];
  for (let i = 0; i < c.length; i += 8) {
    if (
      (w0 & c[i + 4]) === c[i] &&
      (w1 & c[i + 5]) === c[i + 1] &&
      (w2 & c[i + 6]) === c[i + 2] &&
      (w3 & c[i + 7]) === c[i + 3]
    ) {
      return true;
    }
  }
  return false;
}
