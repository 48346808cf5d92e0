// Brands from the name-suggestion-index package (BSD-3-Clause): its `brands/*` trees list each brand's
// canonical OSM tags (`brand`, `brand:wikidata`, `name`, the primary tag) and other names it goes by.
// The 13 MB file is read once per import, never by the gateway: the places stage keeps only the chain
// of each matched POI.
//
// Matching, strongest first: `brand:wikidata`; then the `brand` tag; then the POI's `name`. Names are
// compared normalised (chain-slug.ts). A name match must also agree on the kind of place (the brand's
// tree, e.g. amenity/fast_food, or one of its matchTags): a restaurant called "Target" is not Target.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { OsmTags } from '../../stage';
import { chainSlug, normalisedName } from './chain-slug';

export interface Brand {
  /** Radar-style slug derived from the brand name. */
  slug: string;
  name: string;
  wikidata?: string;
  /** "amenity/fast_food" and the brand's matchTags. */
  kinds: string[];
}

interface NsiItem {
  displayName: string;
  matchNames?: string[];
  matchTags?: string[];
  tags: Record<string, string>;
}

interface NsiFile {
  _meta: { version: string };
  nsi: Record<string, { items: NsiItem[] }>;
}

export interface BrandIndex {
  readonly version: string;
  readonly size: number;
  match(tags: OsmTags): Brand | undefined;
}

export function nsiFilePath(): string {
  // The package's exports map hides dist/json; its main entry sits in dist/js.
  return path.join(path.dirname(require.resolve('name-suggestion-index')), '..', 'json', 'nsi.json');
}

export function loadBrandIndex(file = nsiFilePath()): BrandIndex {
  return brandIndexOf(JSON.parse(readFileSync(file, 'utf8')) as NsiFile);
}

function kindOf(tags: OsmTags): string[] {
  const out: string[] = [];
  for (const key of ['amenity', 'shop', 'tourism', 'leisure', 'craft', 'office', 'healthcare']) {
    const v = tags[key];
    if (v !== undefined) out.push(`${key}/${v}`);
  }
  return out;
}

interface NsiEntry {
  kind: string;
  item: NsiItem;
}

/** Worldwide entries first, then ones whose name is in Latin letters: Radar spells chains in English. */
function canonicalRank(e: NsiEntry): number {
  const name = e.item.tags.brand ?? e.item.tags.name ?? e.item.displayName;
  const worldwide = (e.item as NsiItem & { locationSet?: { include?: string[] } }).locationSet?.include?.includes('001') ?? false;
  return (worldwide ? 0 : 4) + (isLatin(name) ? 0 : 2) + (e.item.tags['brand:en'] !== undefined ? 0 : 1);
}

function isLatin(name: string): boolean {
  return /^[\p{Script=Latin}\p{N}\p{P}\p{Zs}\p{S}]+$/u.test(name);
}

/** "starbucks-795f60" → "starbucks": NSI ids are a Latin slug plus a hash, a fallback for non-Latin names. */
function idSlug(item: NsiItem & { id?: string }): string {
  return (item.id ?? '').replace(/-[0-9a-f]{6}$/, '');
}

export function brandIndexOf(file: NsiFile): BrandIndex {
  const byWikidata = new Map<string, Brand>();
  // A brand's own names rank above other brands' aliases: "Société Générale" is an old name (alias) of
  // Saham Bank, but first of all the name of Société Générale.
  const byName = new Map<string, Brand[]>();
  const byAlias = new Map<string, Brand[]>();
  const addTo = (map: Map<string, Brand[]>, name: string | undefined, brand: Brand): void => {
    if (!name) return;
    const key = normalisedName(name);
    if (!key) return;
    const list = map.get(key);
    if (!list) map.set(key, [brand]);
    else if (!list.includes(brand)) list.push(brand);
  };
  const addName = (name: string | undefined, brand: Brand): void => addTo(byName, name, brand);
  // One brand appears in several trees and countries (a chain's cafes and shops, its Russian entry):
  // the entries sharing a brand:wikidata make one Brand named after its most canonical entry.
  const groups = new Map<string, NsiEntry[]>();
  let anonymous = 0;
  for (const [treePath, tree] of Object.entries(file.nsi)) {
    if (!treePath.startsWith('brands/')) continue;
    const kind = treePath.slice('brands/'.length);
    for (const item of tree.items) {
      const key = item.tags['brand:wikidata'] ?? `#${anonymous++}`;
      const list = groups.get(key);
      if (list) list.push({ kind, item });
      else groups.set(key, [{ kind, item }]);
    }
  }
  for (const [key, entries] of groups) {
    const best = entries.reduce((a, b) => (canonicalRank(b) < canonicalRank(a) ? b : a));
    const own = best.item.tags.brand ?? best.item.tags.name ?? best.item.displayName;
    const name = isLatin(own) ? own : (best.item.tags['brand:en'] ?? own);
    const brand: Brand = { slug: chainSlug(name) || idSlug(best.item), name, kinds: [] };
    if (!key.startsWith('#')) {
      brand.wikidata = key;
      byWikidata.set(key, brand);
    }
    for (const { kind, item } of entries) {
      brand.kinds.push(kind, ...(item.matchTags ?? []));
      addName(item.tags.brand, brand);
      addName(item.tags.name, brand);
      addName(item.tags['brand:en'], brand);
      addName(item.displayName.replace(/\s*\(.*\)\s*$/, ''), brand);
      for (const alias of item.matchNames ?? []) addTo(byAlias, alias, brand);
    }
  }
  const size = groups.size;
  const byKind = (candidates: Brand[] | undefined, kinds: string[]): Brand | undefined =>
    candidates?.find((b) => b.kinds.some((k) => kinds.includes(k)));
  return {
    version: file._meta.version,
    size,
    match(tags) {
      const wikidata = tags['brand:wikidata'];
      if (wikidata !== undefined) {
        const brand = byWikidata.get(wikidata);
        if (brand) return brand;
      }
      const kinds = kindOf(tags);
      if (tags.brand !== undefined) {
        const key = normalisedName(tags.brand);
        const own = byName.get(key);
        const alias = byAlias.get(key);
        // An explicit brand tag is the mapper's word: any kind will do when none agrees.
        const brand = byKind(own, kinds) ?? byKind(alias, kinds) ?? own?.[0] ?? alias?.[0];
        if (brand) return brand;
      }
      if (tags.name !== undefined) {
        const key = normalisedName(tags.name);
        return byKind(byName.get(key), kinds) ?? byKind(byAlias.get(key), kinds);
      }
      return undefined;
    },
  };
}
