// The administrative fields an indexed feature carries, as Radar names them in an address.
export interface AdminContext {
  countryCode?: string;
  country?: string;
  state?: string;
  stateCode?: string;
  county?: string;
  city?: string;
  borough?: string;
  neighborhood?: string;
  postalCode?: string;
}

export const ADMIN_FIELDS = ['countryCode', 'country', 'state', 'stateCode', 'county', 'city', 'borough', 'neighborhood', 'postalCode'] as const;
export type AdminField = (typeof ADMIN_FIELDS)[number];
