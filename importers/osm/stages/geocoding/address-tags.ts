// The `addr:*` tags of an OSM object, read the same way for address points, POIs and buildings.
import type { OsmTags } from '../../stage';

export interface AddressTags {
  number?: string;
  /** `addr:street`, else `addr:place` (villages addressed by place name, common in Europe). */
  street?: string;
  unit?: string;
  /** `addr:flats`: the units of a building ("1-12"); its presence tells validation units exist. */
  flats?: string;
  city?: string;
  postalCode?: string;
  state?: string;
  countryCode?: string;
}

export function readAddressTags(t: OsmTags): AddressTags {
  const country = t['addr:country'];
  return {
    number: clean(t['addr:housenumber']),
    street: clean(t['addr:street']) ?? clean(t['addr:place']),
    unit: clean(t['addr:unit']) ?? clean(t['addr:door']),
    flats: clean(t['addr:flats']),
    city: clean(t['addr:city']),
    postalCode: clean(t['addr:postcode'])?.toUpperCase(),
    state: clean(t['addr:state']),
    countryCode: country !== undefined && /^[A-Za-z]{2}$/.test(country) ? country.toUpperCase() : undefined,
  };
}

function clean(value: string | undefined): string | undefined {
  const v = value?.trim();
  return v === undefined || v === '' || v.length > 200 ? undefined : v;
}
