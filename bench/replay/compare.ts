// Pairs two normalised recordings by position and says which pairs differ and where: the request
// (the script sent something else, so the runs went apart earlier), the status, the content type, or
// the JSON paths of the body whose values differ.
import type { RecordedPair } from './recorder';

export interface PairDifference {
  n: number;
  label: string;
  request: string;
  /** Each difference as `where: before → after`. */
  details: string[];
}

const SHOWN = 160;

function shown(v: unknown): string {
  const text = v === undefined ? '(absent)' : JSON.stringify(v);
  return text.length > SHOWN ? `${text.slice(0, SHOWN)}… (${text.length} chars)` : text;
}

/** The paths below `where` at which a and b differ, at most `limit` of them. */
function differences(a: unknown, b: unknown, where: string, out: string[], limit: number): void {
  if (out.length >= limit) return;
  if (JSON.stringify(a) === JSON.stringify(b)) return;
  const bothArrays = Array.isArray(a) && Array.isArray(b);
  const bothObjects = !bothArrays && a !== null && b !== null && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b);
  if (bothArrays) {
    const [x, y] = [a as unknown[], b as unknown[]];
    if (x.length !== y.length) out.push(`${where}.length: ${x.length} → ${y.length}`);
    for (let i = 0; i < Math.min(x.length, y.length); i++) differences(x[i], y[i], `${where}[${i}]`, out, limit);
    return;
  }
  if (bothObjects) {
    const [x, y] = [a as Record<string, unknown>, b as Record<string, unknown>];
    const keysA = Object.keys(x);
    const keysB = Object.keys(y);
    if (keysA.join() !== keysB.join() && [...keysA].sort().join() === [...keysB].sort().join()) out.push(`${where}: key order ${keysA.join(',')} → ${keysB.join(',')}`);
    for (const k of new Set([...keysA, ...keysB])) differences(x[k], y[k], `${where}.${k}`, out, limit);
    return;
  }
  out.push(`${where}: ${shown(a)} → ${shown(b)}`);
}

/** Differences counted in one pair before the count says "at least" (a whole route's geometry can differ). */
const COUNTED_PER_PAIR = 10_000;

/** The first `limit` differences, then one line saying how many more there are. */
function cut(details: string[], limit: number, counted: number): string[] {
  if (details.length <= limit) return details;
  const more = details.length - limit;
  return [...details.slice(0, limit), `… and ${details.length >= counted ? 'at least ' : ''}${more} more difference${more === 1 ? '' : 's'} in this pair`];
}

export function comparePairs(before: RecordedPair[], after: RecordedPair[], limitPerPair = 12): { same: number; differing: PairDifference[] } {
  const differing: PairDifference[] = [];
  let same = 0;
  for (let i = 0; i < Math.max(before.length, after.length); i++) {
    const a = before[i];
    const b = after[i];
    const at = a ?? b;
    const request = `${at.method} ${at.path}`;
    if (!a || !b) {
      differing.push({ n: at.n, label: at.label, request, details: [a ? 'absent from after' : 'absent from before'] });
      continue;
    }
    // Collected past the limit so that the printout can say how many it leaves out: a cut list read as
    // complete once hid three of fifteen differences (GET /v1/data/extracts, issue 34's replay).
    const details: string[] = [];
    differences({ method: a.method, path: a.path, body: a.request }, { method: b.method, path: b.path, body: b.request }, 'request', details, COUNTED_PER_PAIR);
    differences(a.status, b.status, 'status', details, COUNTED_PER_PAIR);
    differences(a.contentType, b.contentType, 'content-type', details, COUNTED_PER_PAIR);
    differences(a.body, b.body, 'answer', details, COUNTED_PER_PAIR);
    if (details.length === 0) same++;
    else differing.push({ n: a.n, label: a.label, request, details: cut(details, limitPerPair, COUNTED_PER_PAIR) });
  }
  return { same, differing };
}
