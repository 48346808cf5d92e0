// A feature's names in other languages, from OSM's `name:xx` tags: only the languages Radar's `lang`
// can ask for (a country relation carries a hundred; the index keeps ten at most), and only those
// that differ from the name as mapped.
import { GEOCODE_LANGUAGES } from '../../../../ports/geocoder';
import type { OsmTags } from '../../stage';

/** Language → name in it. */
export type Translations = Readonly<Record<string, string>>;

/** `name:xx` per language, made once: not for every named street and place of a region. */
const NAME_KEYS = GEOCODE_LANGUAGES.map((lang) => [lang, `name:${lang}`] as const);

export function readTranslations(tags: OsmTags, mapped: string): Translations | undefined {
  let out: Record<string, string> | undefined;
  for (const [lang, key] of NAME_KEYS) {
    const value = tags[key]?.trim();
    if (value === undefined || value === '' || value === mapped) continue;
    (out ??= {})[lang] = value;
  }
  return out;
}

/** Adds the translations of one name to those already known of it (the first seen wins per language). */
export function mergeTranslations(into: Map<string, Record<string, string>>, name: string, names: Translations | undefined): void {
  if (names === undefined) return;
  const known = into.get(name);
  if (known === undefined) {
    into.set(name, { ...names });
    return;
  }
  for (const [lang, value] of Object.entries(names)) known[lang] ??= value;
}
