// Street-type, direction and German street abbreviations with their long forms (USPS Publication 28
// suffixes and directionals, common Canadian and German forms). Both the index and queries expand
// them, so either form finds the other.

const LONG_FORMS: Record<string, readonly string[]> = {
  street: ['st'],
  avenue: ['ave', 'av', 'avn', 'aven'],
  boulevard: ['blvd', 'boul', 'bd'],
  road: ['rd'],
  drive: ['dr', 'drv'],
  lane: ['ln'],
  place: ['pl'],
  court: ['ct'],
  terrace: ['ter', 'terr'],
  parkway: ['pkwy', 'pky'],
  highway: ['hwy'],
  expressway: ['expy'],
  circle: ['cir'],
  square: ['sq'],
  turnpike: ['tpke'],
  crescent: ['cres'],
  trail: ['trl'],
  way: ['wy'],
  alley: ['aly'],
  plaza: ['plz'],
  center: ['ctr'],
  mount: ['mt'],
  fort: ['ft'],
  north: ['n'],
  south: ['s'],
  east: ['e'],
  west: ['w'],
  northeast: ['ne'],
  northwest: ['nw'],
  southeast: ['se'],
  southwest: ['sw'],
  strasse: ['str'],
};

// "St" is Street and "Str." is Strasse: a lone "str" and a glued "…str" ("Hauptstr.") become Strasse.
// "Saint" stays unexpanded ("St Marks" reads as Street Marks on both sides, so it still matches).
const TOKEN_FORMS = new Map<string, string>();
for (const [long, shorts] of Object.entries(LONG_FORMS)) {
  for (const s of shorts) TOKEN_FORMS.set(s, long);
}

/** The long form of one folded token ("st" → "street", "hauptstr" → "hauptstrasse"). */
export function expandToken(token: string): string {
  const long = TOKEN_FORMS.get(token);
  if (long !== undefined) return long;
  // German compounds: "Hauptstr." and "Hauptstraße" fold to "hauptstr" and "hauptstrasse".
  if (token.length > 4 && token.endsWith('str')) return `${token}asse`;
  return token;
}

/** Words that say "this is a unit" in a US or Canadian address line. */
export const UNIT_WORDS: ReadonlySet<string> = new Set(['apt', 'apartment', 'unit', 'ste', 'suite', 'fl', 'floor', 'rm', 'room', 'bldg', 'building', 'dept', 'lot', 'spc', 'space', 'trlr', 'ph', '#']);
