// Whether passing from one road to another is worth a step of its own because of its name, after the
// rule OSRM's guidance applies (requiresNameAnnounced, read in Project-OSRM/osrm-backend): a name that
// only gains or loses a directional prefix or suffix ("North Haven Street" → "South Haven Street",
// "High Street W" → "High Street E"), a name contained at the start of the other ("Key Highway" →
// "Key Highway East"), or a road keeping its reference while its name appears or goes, is the same road.

export interface RoadName {
  name: string;
  ref: string;
}

/** Directional words OSRM's car profile lists as suffixes (its `suffix_list`), lower case. */
const SUFFIXES = new Set(['n', 'ne', 'e', 'se', 's', 'sw', 'w', 'nw', 'north', 'south', 'west', 'east', 'nor', 'sou', 'we', 'ea']);

function longestCommonSubstring(a: string, b: string): string {
  let best = 0;
  let end = 0;
  let prev = new Uint16Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    const row = new Uint16Array(b.length + 1);
    for (let j = 1; j <= b.length; j++) {
      if (a[i - 1] !== b[j - 1]) continue;
      row[j] = prev[j - 1] + 1;
      if (row[j] > best) {
        best = row[j];
        end = i;
      }
    }
    prev = row;
  }
  return a.slice(end - best, end);
}

/** The two names differ only by directional words before or after what they share. */
function onlyDirectionChanges(a: string, b: string): boolean {
  const common = longestCommonSubstring(a, b);
  const clean = (s: string) => s.trim().toLowerCase();
  const parts = common === ''
    ? [a, b]
    : [a.slice(0, a.indexOf(common)), a.slice(a.indexOf(common) + common.length), b.slice(0, b.indexOf(common)), b.slice(b.indexOf(common) + common.length)];
  return parts.map(clean).every((p) => p === '' || SUFFIXES.has(p));
}

/** True when the change from `from` to `to` must be announced as a new name. */
export function nameChangeAnnounced(from: RoadName, to: RoadName): boolean {
  if (from.name === to.name && from.ref === to.ref) return false;
  if (from.name === '' && from.ref === '' && !(to.name === '' && to.ref === '')) return true;
  const namesEmpty = from.name === '' && to.name === '';
  const contained = from.name.startsWith(to.name) || to.name.startsWith(from.name);
  const suffixChange = onlyDirectionChanges(from.name, to.name);
  const namesEqual = from.name === to.name || contained || suffixChange;
  const nameRemoved = from.name !== '' && to.name === '';
  const refsEmpty = from.ref === '' && to.ref === '';
  const refContained = from.ref === '' || to.ref === '' || from.ref.includes(to.ref) || to.ref.includes(from.ref);
  const refRemoved = from.ref !== '' && to.ref === '';
  const obvious = (namesEmpty && refsEmpty) || (namesEqual && refContained) || (namesEqual && refsEmpty)
    || (refContained && nameRemoved) || (namesEqual && refRemoved) || suffixChange;
  const mustAnnounce = (from.name === '' && from.ref !== '' && to.name !== '' && to.ref === '')
    || (from.name !== '' && from.ref === '' && to.name === '' && to.ref !== '')
    || (namesEmpty && !refContained);
  return !obvious || mustAnnounce;
}

/**
 * Two steps name one road (OSRM's haveSameName): both named or numbered, and no change announced between
 * them. An unnamed road is never the same road as another.
 */
export function haveSameName(a: { name: string; ref?: string }, b: { name: string; ref?: string }): boolean {
  const named = (s: { name: string; ref?: string }) => s.name !== '' || (s.ref ?? '') !== '';
  if (!named(a) || !named(b)) return false;
  return !nameChangeAnnounced({ name: a.name, ref: a.ref ?? '' }, { name: b.name, ref: b.ref ?? '' });
}
