// How well a street or place name matches the words of a query. Every word of the name must be in the
// query, except directions and street types ("Wolfe" finds "North Wolfe Street" at a small cost); the
// last word typed may be a prefix while someone is still typing. The words the name did not use are
// returned, to be matched against the town, county or neighbourhood. With `typos`, a word of five
// letters or more may be one letter off, of eight or more two (edit-distance.ts), worth less than a
// word spelt right so that exact matches rank first. Places match on part of their name
// (matchPlaceName): "hopkins" and "johns hop" find "Johns Hopkins Hospital". Normal forms split at an
// apostrophe ("O'Donnell" → "o donnell"), so a typo inside such a word ("O'Dnell") is looked for with
// the one-letter particle glued back on both sides ("odnell" against "odonnell", glueParticles()).
import { editDistance, typoAllowance } from './edit-distance';

const OPTIONAL = new Set([
  'north', 'south', 'east', 'west', 'northeast', 'northwest', 'southeast', 'southwest',
  'street', 'avenue', 'road', 'drive', 'lane', 'place', 'court', 'boulevard', 'terrace', 'way', 'strasse',
]);

/** A direction or street type, which a name may leave out of the query. */
export function isOptionalWord(word: string): boolean {
  return OPTIONAL.has(word);
}

export interface NameMatch {
  /** Name words found in the query, minus a quarter point per optional word left out. */
  score: number;
  /** Query words the name did not use, in query order. */
  leftover: string[];
}

/** A word spelt with a typo counts this much (a word spelt right: 1, a prefix being typed: 0.75). */
const TYPO_WORTH = 0.6;

export function matchName(nameTokens: readonly string[], queryTokens: readonly string[], lastIsPrefix: boolean, typos = false): NameMatch | undefined {
  const m = matchWords(nameTokens, queryTokens, lastIsPrefix, typos);
  if (m !== undefined || !typos) return m;
  const gluedName = glueParticles(nameTokens);
  const gluedQuery = glueParticles(queryTokens);
  if (gluedName.length === nameTokens.length && gluedQuery.length === queryTokens.length) return undefined;
  return matchWords(gluedName, gluedQuery, lastIsPrefix, typos);
}

/**
 * A one-letter word joined to the word after it ("o donnell" → "odonnell", "d annunzio" → "dannunzio"):
 * what an apostrophe split, so that the whole word's length sets its typo allowance.
 */
export function glueParticles(tokens: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const next = tokens[i + 1];
    if (/^\p{L}$/u.test(tokens[i]) && next !== undefined && /^\p{L}/u.test(next)) {
      out.push(tokens[i] + next);
      i++;
    } else {
      out.push(tokens[i]);
    }
  }
  return out;
}

function matchWords(nameTokens: readonly string[], queryTokens: readonly string[], lastIsPrefix: boolean, typos: boolean): NameMatch | undefined {
  const used = new Array<boolean>(queryTokens.length).fill(false);
  let score = 0;
  for (const word of nameTokens) {
    let at = -1;
    let worth = 0;
    for (let i = 0; i < queryTokens.length; i++) {
      if (used[i]) continue;
      if (queryTokens[i] === word) {
        at = i;
        worth = 1;
        break;
      }
      if (lastIsPrefix && i === queryTokens.length - 1 && word.startsWith(queryTokens[i]) && worth < 0.75) {
        at = i;
        worth = 0.75;
      } else if (typos && worth < TYPO_WORTH && isTypoOf(queryTokens[i], word)) {
        at = i;
        worth = TYPO_WORTH;
      }
    }
    if (at >= 0) {
      used[at] = true;
      score += worth;
    } else if (OPTIONAL.has(word)) {
      score -= 0.25;
    } else {
      return undefined;
    }
  }
  if (score <= 0) return undefined;
  return { score, leftover: queryTokens.filter((_, i) => !used[i]) };
}

/** Points for leftover words found in the answer's admin names: +1 each found, -1 each not. */
export function adminAgreement(leftover: readonly string[], adminTokens: ReadonlySet<string>, lastIsPrefix: boolean): number {
  let score = 0;
  leftover.forEach((word, i) => {
    if (adminTokens.has(word)) score += 1;
    else if (lastIsPrefix && i === leftover.length - 1 && [...adminTokens].some((t) => t.startsWith(word))) score += 0.5;
    else score -= 1;
  });
  return score;
}

/** Whether a typed word is the name's word misspelt: not a number, within the word's allowance. */
function isTypoOf(typed: string, word: string): boolean {
  if (/\d/.test(typed)) return false;
  const allowed = typoAllowance(Math.max(typed.length, word.length));
  return allowed > 0 && typed[0] === word[0] && editDistance(typed, word, allowed) <= allowed;
}

/**
 * A place named by part of its name, in order or not: each query word found among the name's words
 * (the last may be a prefix while typing) counts 1; each name word left unsaid costs a fifth, so the
 * whole name ranks above a part of it. Query words not in the name are returned as leftover (the
 * town...). Undefined when no word of the name was given.
 */
export function matchPlaceName(nameTokens: readonly string[], queryTokens: readonly string[], lastIsPrefix: boolean): NameMatch | undefined {
  const usedName = new Array<boolean>(nameTokens.length).fill(false);
  const leftover: string[] = [];
  let found = 0;
  queryTokens.forEach((q, i) => {
    const prefix = lastIsPrefix && i === queryTokens.length - 1;
    let at = nameTokens.findIndex((w, j) => !usedName[j] && w === q);
    let worth = 1;
    if (at < 0 && prefix) {
      at = nameTokens.findIndex((w, j) => !usedName[j] && w.startsWith(q));
      worth = 0.75;
    }
    if (at < 0) {
      leftover.push(q);
      return;
    }
    usedName[at] = true;
    found += worth;
  });
  if (found === 0) return undefined;
  const unsaid = usedName.filter((u, j) => !u && !OPTIONAL.has(nameTokens[j])).length;
  return { score: found - unsaid * 0.2, leftover };
}
