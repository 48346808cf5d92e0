/**
 * Canadian provinces and territories: postal abbreviation, English name, and the
 * first letter(s) of the postal codes (FSAs) that belong to each. A fact table.
 */
export interface CaProvinceFact {
  readonly code: string;
  readonly name: string;
}

const ROWS: ReadonlyArray<readonly [code: string, name: string]> = [
  ['AB', 'Alberta'],
  ['BC', 'British Columbia'],
  ['MB', 'Manitoba'],
  ['NB', 'New Brunswick'],
  ['NL', 'Newfoundland and Labrador'],
  ['NS', 'Nova Scotia'],
  ['NT', 'Northwest Territories'],
  ['NU', 'Nunavut'],
  ['ON', 'Ontario'],
  ['PE', 'Prince Edward Island'],
  ['QC', 'Quebec'],
  ['SK', 'Saskatchewan'],
  ['YT', 'Yukon'],
];

/** Canada Post assigns each province its FSA first letters; X is split between NT and NU. */
const FSA_LETTER: Readonly<Record<string, string>> = {
  A: 'NL', B: 'NS', C: 'PE', E: 'NB', G: 'QC', H: 'QC', J: 'QC',
  K: 'ON', L: 'ON', M: 'ON', N: 'ON', P: 'ON', R: 'MB', S: 'SK', T: 'AB', V: 'BC', Y: 'YT',
};
const NUNAVUT_FSAS = new Set(['X0A', 'X0B', 'X0C']);

const BY_CODE = new Map<string, CaProvinceFact>();
const BY_NAME = new Map<string, CaProvinceFact>();
for (const [code, name] of ROWS) {
  const fact: CaProvinceFact = Object.freeze({ code, name });
  BY_CODE.set(code, fact);
  BY_NAME.set(name.toLowerCase(), fact);
}
// Names other sources use for the same provinces (DB-IP, older Canada Post lists).
BY_NAME.set('québec', BY_CODE.get('QC') as CaProvinceFact);
BY_NAME.set('newfoundland', BY_CODE.get('NL') as CaProvinceFact);
BY_NAME.set('northwest territory', BY_CODE.get('NT') as CaProvinceFact);
BY_NAME.set('nunavut territory', BY_CODE.get('NU') as CaProvinceFact);
BY_NAME.set('yukon territory', BY_CODE.get('YT') as CaProvinceFact);

export function caProvinceByCode(code: string): CaProvinceFact | undefined {
  return BY_CODE.get(code.toUpperCase());
}

export function caProvinceByName(name: string): CaProvinceFact | undefined {
  return BY_NAME.get(name.trim().toLowerCase());
}

/** The province an FSA ("M5H") or full postal code ("M5H 2N2") belongs to. */
export function caProvinceOfPostalCode(postalCode: string): CaProvinceFact | undefined {
  const fsa = postalCode.trim().toUpperCase().slice(0, 3);
  if (!/^[A-Z][0-9][A-Z]$/.test(fsa)) return undefined;
  if (fsa[0] === 'X') return BY_CODE.get(NUNAVUT_FSAS.has(fsa) ? 'NU' : 'NT');
  const code = FSA_LETTER[fsa[0]];
  return code === undefined ? undefined : BY_CODE.get(code);
}

export function allCaProvinces(): CaProvinceFact[] {
  return [...BY_CODE.values()];
}
