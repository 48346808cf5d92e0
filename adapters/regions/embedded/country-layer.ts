import { countryByAlpha2, countryByNumeric, flagEmoji } from '../../../core/facts/iso-countries';
import type { Region } from '../../../ports/regions';
import { regionId } from '../region-id';
import type { PolygonRings } from '../../../core/geo/banded-polygon';
import { readTopologyFeatures } from './bundled-topology';
import { PolygonLayer, type LayerEntry } from './polygon-layer';

/**
 * Natural Earth 1:10m countries from world-atlas. 10m rather than 50m because at
 * 50m borders and coasts are off by kilometres (the Detroit River and the Rhine at
 * Strasbourg are narrower than that); 10m keeps them within a few hundred metres at
 * 545k vertices, about 20 MB once indexed.
 */
export const COUNTRIES_TOPOLOGY = 'world-atlas/countries-10m.json';

/**
 * Natural Earth areas without an ISO numeric id. Each goes to the country that
 * administers it; contested reefs with no single administrator (Spratly Is.,
 * Scarborough Reef) are left out and so answer no country.
 */
const UNNUMBERED: Readonly<Record<string, string | ((polygon: PolygonRings) => string)>> = {
  Dhekelia: 'GB',
  Akrotiri: 'GB',
  Somaliland: 'SO',
  Kosovo: 'XK',
  'USNB Guantanamo Bay': 'CU',
  'N. Cyprus': 'CY',
  'Cyprus U.N. Buffer Zone': 'CY',
  'Siachen Glacier': 'IN',
  Baikonur: 'KZ',
  // Christmas Island (105.7°E) and the Cocos (Keeling) Islands (96.8°E) are one Natural Earth feature.
  'Indian Ocean Ter.': (polygon) => ((polygon[0]?.[0]?.[0] ?? 0) > 100 ? 'CX' : 'CC'),
  'Coral Sea Is.': 'AU',
  'Clipperton I.': 'FR',
  'Bajo Nuevo Bank': 'CO',
  'Serranilla Bank': 'CO',
};

export function countryRegion(alpha2: string): Region | undefined {
  const fact = countryByAlpha2(alpha2);
  if (fact === undefined) return undefined;
  return Object.freeze({
    _id: regionId('country', fact.alpha2),
    type: 'country',
    name: fact.name,
    code: fact.alpha2,
    flag: flagEmoji(fact.alpha2),
  });
}

export function loadCountryLayer(): PolygonLayer<Region> {
  const regions = new Map<string, Region>();
  const regionOf = (alpha2: string): Region | undefined => {
    let region = regions.get(alpha2);
    if (region === undefined) {
      region = countryRegion(alpha2);
      if (region !== undefined) regions.set(alpha2, region);
    }
    return region;
  };
  const entries: Array<LayerEntry<Region>> = [];
  for (const f of readTopologyFeatures(COUNTRIES_TOPOLOGY, 'countries')) {
    if (f.id !== undefined) {
      const fact = countryByNumeric(f.id);
      const region = fact && regionOf(fact.alpha2);
      if (region !== undefined) entries.push({ value: region, polygons: f.polygons });
      continue;
    }
    const rule = f.name === undefined ? undefined : UNNUMBERED[f.name];
    if (rule === undefined) continue;
    for (const polygon of f.polygons) {
      const region = regionOf(typeof rule === 'string' ? rule : rule(polygon));
      if (region !== undefined) entries.push({ value: region, polygons: [polygon] });
    }
  }
  return new PolygonLayer(entries);
}
