// Query understanding: splits what a person typed into house number, unit, postal code, state and
// country, and leaves the words that name a street, place or locality for the index to match. Two
// orders are recognised: North American "615 N Wolfe St, Baltimore, MD 21205-1234" (number first,
// ZIP or ZIP+4 last, units as "Apt 4B", "#4", "Fl 7") and European "Städtle 43, 9490 Vaduz" (number
// after the street, postal code before the town). Commas help but are not needed: the matcher scores
// every street whose words appear in the query, so "615 n wolfe st baltimore md" works too.
import { UNIT_WORDS } from './abbreviations';
import { foldText, nameTokens, normalizeHouseNumber } from './normalize';

export interface ParsedQuery {
  /** The whole query folded (case, accents, punctuation). */
  folded: string;
  /** House number, normalised ("203-06", "12a"). */
  number?: string;
  unit?: string;
  /** US ZIP (5 digits), Canadian postal code ("A1A 1A1" or the FSA "A1A") or another country's digits. */
  postalCode?: string;
  plus4?: string;
  /** Two-letter US state or Canadian province code when one is written. */
  stateCode?: string;
  /** ISO alpha-2 of a country named at the end. */
  countryCode?: string;
  /** Words of the address line without number and unit, abbreviations expanded. */
  streetTokens: string[];
  /** Words of the other comma parts (city, neighbourhood…) and, without commas, every name word. */
  localityTokens: string[];
  /** Every name word (street and locality) in query order. */
  tokens: string[];
}

export interface ParseOptions {
  /** Folded text → state/province code ("md", "maryland", "ontario" → "MD", "ON"). */
  stateCode(folded: string): string | undefined;
  /** Folded text → ISO alpha-2 ("usa", "united states", "liechtenstein"). */
  countryCode(folded: string): string | undefined;
}

const ZIP = /^(\d{5})(?:-?(\d{4}))?$/;
const CA_POSTAL = /^([a-z]\d[a-z])\s?(\d[a-z]\d)?$/;
const EURO_POSTAL = /^\d{4,5}$/;
const NUMBER_FIRST = /^(\d+[a-z]?(?:-\d+[a-z]?)?|\d+\s?[a-z])\b\s*(.*)$/;
const NUMBER_LAST = /^(.*\D)\s(\d+[a-z]?(?:-\d+)?)$/;
// European order without commas: "stadtle 43 vaduz", "kalbacher hauptstrasse 10 60437 frankfurt".
const NUMBER_INSIDE = /^(\D*\D)\s(\d{1,4}[a-z]?)\s(?:(\d{4,5})\s)?(\D.*)$/;
const HASH_UNIT = /#\s*([a-z0-9-]+)/i;

export function parseQuery(query: string, opts: ParseOptions): ParsedQuery {
  const out: ParsedQuery = { folded: foldText(query), streetTokens: [], localityTokens: [], tokens: [] };
  let raw = query.normalize('NFC');
  const hash = HASH_UNIT.exec(raw);
  if (hash) {
    out.unit = `#${hash[1]}`;
    raw = raw.replace(hash[0], ' ');
  }
  let parts = raw.split(',').map((p) => foldText(p)).filter((p) => p !== '');

  // From the end: country, then "STATE ZIP" / "ZIP" / "A1A 1A1", in any of the last parts.
  if (parts.length > 1) {
    const country = opts.countryCode(parts[parts.length - 1]);
    if (country !== undefined) {
      out.countryCode = country;
      parts = parts.slice(0, -1);
    }
  }
  let words = parts.map((p) => p.split(' '));
  const lastPart = (): string[] => words[words.length - 1];
  if (words.length > 0) {
    const tail = lastPart();
    // A country written without a comma: "... Baltimore MD 21205 USA".
    for (const n of [2, 1]) {
      if (out.countryCode === undefined && tail.length > n + 1) {
        const country = opts.countryCode(tail.slice(-n).join(' '));
        if (country !== undefined && !(n === 1 && tail[tail.length - 1].length === 2 && opts.stateCode(tail[tail.length - 1]))) {
          out.countryCode = country;
          tail.splice(-n, n);
        }
      }
    }
    takePostalAndState(out, words, opts);
  }
  words = words.filter((w) => w.length > 0 && !(w.length === 1 && w[0] === ''));
  if (words.length === 0) return finish(out);

  // The address line is the first part; number first (North America) or last (Europe).
  const line = words[0].join(' ');
  let street = line;
  const first = NUMBER_FIRST.exec(line);
  const last = first ? null : NUMBER_LAST.exec(line);
  const inside = first || last ? null : NUMBER_INSIDE.exec(line);
  if (inside) {
    out.number = normalizeHouseNumber(inside[2]);
    street = inside[1];
    if (inside[3] !== undefined) out.postalCode ??= inside[3];
    out.localityTokens.push(...nameTokens(inside[4]));
  } else if (first && first[2] !== '') {
    out.number = normalizeHouseNumber(first[1]);
    street = first[2];
  } else if (last) {
    out.number = normalizeHouseNumber(last[2]);
    street = last[1];
  } else if (first && words.length > 1) {
    // "43, Städtle" is rare; a lone number part is a number when more parts follow.
    out.number = normalizeHouseNumber(first[1]);
    street = words[1].join(' ');
    words = words.slice(1);
  }
  street = takeUnit(out, street);
  out.streetTokens = nameTokens(street);
  for (const w of words.slice(1)) {
    const text = takeUnit(out, w.join(' '));
    if (text === '') continue;
    const m = /^(\d{4,5})\s+(.*)$/.exec(text);
    if (m && out.postalCode === undefined) {
      out.postalCode = m[1];
      out.localityTokens.push(...nameTokens(m[2]));
    } else {
      out.localityTokens.push(...nameTokens(text));
    }
  }
  return finish(out);
}

function finish(out: ParsedQuery): ParsedQuery {
  out.tokens = [...out.streetTokens, ...out.localityTokens];
  return out;
}

/** Takes "MD 21205", "21205-1234", "ON M5V 2T6", "9490" from the end of the last part(s). */
function takePostalAndState(out: ParsedQuery, words: string[][], opts: ParseOptions): void {
  let tail = words[words.length - 1];
  // A Canadian code is two words ("m5v 2t6").
  if (tail.length >= 2 && CA_POSTAL.test(tail.slice(-2).join(' ')) && /^\d[a-z]\d$/.test(tail[tail.length - 1])) {
    out.postalCode = tail.slice(-2).join(' ').toUpperCase();
    tail.splice(-2, 2);
  } else if (tail.length >= 1) {
    const w = tail[tail.length - 1];
    const zip = ZIP.exec(w);
    if (zip && (tail.length > 1 || words.length > 1)) {
      out.postalCode = zip[1];
      if (zip[2] !== undefined) out.plus4 = zip[2];
      tail.splice(-1, 1);
    } else if (/^[a-z]\d[a-z]$/.test(w) && (tail.length > 1 || words.length > 1)) {
      out.postalCode = w.toUpperCase();
      tail.splice(-1, 1);
    } else if (EURO_POSTAL.test(w) && words.length > 1 && tail.length === 1) {
      out.postalCode = w;
      tail.splice(-1, 1);
    }
  }
  if (tail.length === 0 && words.length > 1) {
    words.pop();
    tail = words[words.length - 1];
  }
  // State: the last one or two words of the last part, when more than the state is there.
  for (const n of [2, 1]) {
    if (tail.length >= n && (tail.length > n || words.length > 1)) {
      const code = opts.stateCode(tail.slice(-n).join(' '));
      if (code !== undefined) {
        out.stateCode = code;
        tail.splice(-n, n);
        break;
      }
    }
  }
  if (tail.length === 0 && words.length > 1) words.pop();
}

/** Removes a trailing unit ("apt 4b", "fl 7", "suite 200") from an address line and records it. */
function takeUnit(out: ParsedQuery, text: string): string {
  const words = text.split(' ');
  for (let i = 1; i < words.length - 1; i++) {
    if (UNIT_WORDS.has(words[i]) && i + 2 === words.length) {
      out.unit ??= `${words[i]} ${words[i + 1]}`.toUpperCase();
      return words.slice(0, i).join(' ');
    }
  }
  if (words.length === 2 && UNIT_WORDS.has(words[0])) {
    out.unit ??= text.toUpperCase();
    return '';
  }
  return text;
}
