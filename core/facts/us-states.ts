/**
 * US states, DC and the inhabited territories: FIPS code (as us-atlas writes it),
 * USPS code and name. A fact table.
 */
export interface UsStateFact {
  readonly fips: string;
  readonly code: string;
  readonly name: string;
  /** Territories are their own ISO 3166-1 countries (PR, GU, ...); the 50 states and DC are in US. */
  readonly territory: boolean;
}

const ROWS: ReadonlyArray<readonly [fips: string, code: string, name: string]> = [
  ['01', 'AL', 'Alabama'],
  ['02', 'AK', 'Alaska'],
  ['04', 'AZ', 'Arizona'],
  ['05', 'AR', 'Arkansas'],
  ['06', 'CA', 'California'],
  ['08', 'CO', 'Colorado'],
  ['09', 'CT', 'Connecticut'],
  ['10', 'DE', 'Delaware'],
  ['11', 'DC', 'District of Columbia'],
  ['12', 'FL', 'Florida'],
  ['13', 'GA', 'Georgia'],
  ['15', 'HI', 'Hawaii'],
  ['16', 'ID', 'Idaho'],
  ['17', 'IL', 'Illinois'],
  ['18', 'IN', 'Indiana'],
  ['19', 'IA', 'Iowa'],
  ['20', 'KS', 'Kansas'],
  ['21', 'KY', 'Kentucky'],
  ['22', 'LA', 'Louisiana'],
  ['23', 'ME', 'Maine'],
  ['24', 'MD', 'Maryland'],
  ['25', 'MA', 'Massachusetts'],
  ['26', 'MI', 'Michigan'],
  ['27', 'MN', 'Minnesota'],
  ['28', 'MS', 'Mississippi'],
  ['29', 'MO', 'Missouri'],
  ['30', 'MT', 'Montana'],
  ['31', 'NE', 'Nebraska'],
  ['32', 'NV', 'Nevada'],
  ['33', 'NH', 'New Hampshire'],
  ['34', 'NJ', 'New Jersey'],
  ['35', 'NM', 'New Mexico'],
  ['36', 'NY', 'New York'],
  ['37', 'NC', 'North Carolina'],
  ['38', 'ND', 'North Dakota'],
  ['39', 'OH', 'Ohio'],
  ['40', 'OK', 'Oklahoma'],
  ['41', 'OR', 'Oregon'],
  ['42', 'PA', 'Pennsylvania'],
  ['44', 'RI', 'Rhode Island'],
  ['45', 'SC', 'South Carolina'],
  ['46', 'SD', 'South Dakota'],
  ['47', 'TN', 'Tennessee'],
  ['48', 'TX', 'Texas'],
  ['49', 'UT', 'Utah'],
  ['50', 'VT', 'Vermont'],
  ['51', 'VA', 'Virginia'],
  ['53', 'WA', 'Washington'],
  ['54', 'WV', 'West Virginia'],
  ['55', 'WI', 'Wisconsin'],
  ['56', 'WY', 'Wyoming'],
  ['60', 'AS', 'American Samoa'],
  ['66', 'GU', 'Guam'],
  ['69', 'MP', 'Northern Mariana Islands'],
  ['72', 'PR', 'Puerto Rico'],
  ['78', 'VI', 'U.S. Virgin Islands'],
];

const TERRITORY_FIPS = new Set(['60', '66', '69', '72', '78']);

const BY_FIPS = new Map<string, UsStateFact>();
const BY_CODE = new Map<string, UsStateFact>();
const BY_NAME = new Map<string, UsStateFact>();
for (const [fips, code, name] of ROWS) {
  const fact: UsStateFact = Object.freeze({ fips, code, name, territory: TERRITORY_FIPS.has(fips) });
  BY_FIPS.set(fips, fact);
  BY_CODE.set(code, fact);
  BY_NAME.set(name.toLowerCase(), fact);
}

export function usStateByFips(fips: string): UsStateFact | undefined {
  return BY_FIPS.get(fips);
}

export function usStateByCode(code: string): UsStateFact | undefined {
  return BY_CODE.get(code.toUpperCase());
}

/** Case-insensitive English name ("new york"); "Washington, D.C." style variants are not matched. */
export function usStateByName(name: string): UsStateFact | undefined {
  return BY_NAME.get(name.trim().toLowerCase());
}

export function allUsStates(): UsStateFact[] {
  return [...BY_CODE.values()];
}
