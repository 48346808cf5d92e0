// Chain slugs as Radar spells them, derived from a brand's display name: "McDonald's" → `mcdonalds`,
// "7-Eleven" → `7-eleven`, "Barnes & Noble" → `barnes-and-noble`, "The Body Shop" → `body-shop`.
// Checked against Radar's published chain list in test/data/places/chain-slug.test.ts; the names
// Radar files under an editorial slug (`dunkin-donuts` for "Dunkin'") are the known misses.

export function chainSlug(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    // Apostrophes and dots join: "McDonald's" → mcdonalds, "E.Leclerc" → eleclerc.
    .replace(/['\u2019.]/g, '')
    .replace(/\s\+\s/g, ' and ')
    .replace(/\+/g, ' plus ')
    .replace(/&/g, ' and ')
    .replace(/^the\s+/, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Names compared for matching a POI to a brand: case, accents, punctuation and spacing ignored. */
export function normalisedName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['\u2019.]/g, '')
    .replace(/&/g, ' and ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
