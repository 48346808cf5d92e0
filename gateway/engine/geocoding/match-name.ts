// How well a street or place name matches the words of a query. Every word of the name must be in the
// query, except directions and street types ("Wolfe" finds "North Wolfe Street" at a small cost); the
// last word typed may be a prefix while someone is still typing. The words the name did not use are
// returned, to be matched against the town, county or neighbourhood.

const OPTIONAL = new Set([
  'north', 'south', 'east', 'west', 'northeast', 'northwest', 'southeast', 'southwest',
  'street', 'avenue', 'road', 'drive', 'lane', 'place', 'court', 'boulevard', 'terrace', 'way', 'strasse',
]);

export interface NameMatch {
  /** Name words found in the query, minus a quarter point per optional word left out. */
  score: number;
  /** Query words the name did not use, in query order. */
  leftover: string[];
}

export function matchName(nameTokens: readonly string[], queryTokens: readonly string[], lastIsPrefix: boolean): NameMatch | undefined {
  const used = new Array<boolean>(queryTokens.length).fill(false);
  let score = 0;
  for (const word of nameTokens) {
    let at = -1;
    for (let i = 0; i < queryTokens.length; i++) {
      if (used[i]) continue;
      if (queryTokens[i] === word) {
        at = i;
        break;
      }
      if (lastIsPrefix && i === queryTokens.length - 1 && word.startsWith(queryTokens[i])) at = i;
    }
    if (at >= 0) {
      used[at] = true;
      score += at === queryTokens.length - 1 && lastIsPrefix && queryTokens[at] !== word ? 0.75 : 1;
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
