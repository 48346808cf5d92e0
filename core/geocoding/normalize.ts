// One normal form for every name the geocoder compares: the import writes it into the index and the
// query side computes it from what a person typed, so "N. Wolfe St", "north wolfe street" and
// "NORTH WOLFE STREET" meet. Lower case, accents folded (Städtle → stadtle, ß → ss), punctuation
// dropped, and each abbreviation replaced by its long form (st → street, str. → strasse).
import { expandToken } from './abbreviations';

const COMBINING_MARKS = /[\u0300-\u036f]/g;
// Letters, digits and the hyphen of Queens-style house numbers ("203-06") survive; the rest separates.
const SEPARATORS = /[^\p{L}\p{N}-]+/gu;

/** Case and accents folded, punctuation turned into single spaces. */
export function foldText(text: string): string {
  return text
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/æ/g, 'ae')
    .replace(/ø/g, 'o')
    .normalize('NFD')
    .replace(COMBINING_MARKS, '')
    .replace(SEPARATORS, ' ')
    .replace(/(^|\s)-+|-+(?=\s|$)/g, ' ')
    .trim()
    .replace(/\s+/g, ' ');
}

/** Folded tokens with abbreviations expanded. */
export function nameTokens(text: string): string[] {
  const folded = foldText(text);
  if (folded === '') return [];
  const out: string[] = [];
  for (const token of folded.split(' ')) {
    // Hyphenated names ("Saint-Jean") are matched word by word.
    for (const part of token.includes('-') && !/^\d/.test(token) ? token.split('-') : [token]) {
      if (part !== '') out.push(expandToken(part));
    }
  }
  return out;
}

/** The normal form of a street or place name: its tokens joined by single spaces. */
export function normalizeName(text: string): string {
  return nameTokens(text).join(' ');
}

/**
 * A house number's normal form: lower case, spaces dropped ("12 A" → "12a"), Queens hyphens kept
 * ("203-06"): "20306" and "203-06" are different buildings there.
 */
export function normalizeHouseNumber(text: string): string {
  return foldText(text).replace(/\s+/g, '');
}

/**
 * A house number as a number for interpolation and nearest-number search: "203-06" → 20306 (the
 * hyphen splits block and lot in Queens, and order is kept), "12a" → 12. NaN when it has no digits.
 */
export function houseNumberValue(text: string): number {
  const m = /^(\d+)(?:-(\d+))?/.exec(normalizeHouseNumber(text));
  if (!m) return Number.NaN;
  return m[2] === undefined ? Number(m[1]) : Number(m[1]) * 10 ** Math.max(2, m[2].length) + Number(m[2]);
}
