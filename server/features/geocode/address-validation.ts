// Address validation for the US and Canada (GET /v1/addresses/validate). Offline, "verified" means:
// the number exists on that street in an imported extract, in the postal code or town given, and the
// postal code, town and state agree in the bundled postal data. What Waymark cannot know offline
// (USPS delivery points, ZIP+4 of an address, whether a building is residential) is not invented:
// plus4 is echoed from the input, propertyType is given only for a mapped business.
import type { GeocodedAddress, Geocoder } from '../../../ports/geocoder';
import { caProvinceOfPostalCode } from '../../../core/facts/ca-provinces';
import { foldText } from '../../../core/geocoding/normalize';

export interface ValidationInput {
  countryCode: 'US' | 'CA';
  stateCode: string;
  city: string;
  postalCode: string;
  plus4?: string;
  number?: string;
  street?: string;
  unit?: string;
  addressLabel?: string;
}

export type VerificationStatus = 'verified' | 'partially verified' | 'ambiguous' | 'unverified';

export interface ValidationResult {
  address: Record<string, unknown>;
  result: { verificationStatus: VerificationStatus; analysis?: string[] };
}

interface ZipEntry {
  zip: string;
  city: string;
  state: string;
  country: string;
}

export class AddressValidator {
  private zipcodes?: { lookup(zip: string): ZipEntry | undefined };

  constructor(private readonly geocoder: Geocoder) {}

  /** Do postal code, town and state agree in the bundled postal data? undefined: the code is unknown. */
  postalAgrees(input: ValidationInput): { code: boolean; city: boolean } | undefined {
    if (input.countryCode === 'CA') {
      const province = caProvinceOfPostalCode(input.postalCode);
      return province === undefined ? undefined : { code: province.code === input.stateCode, city: true };
    }
    this.zipcodes ??= require('zipcodes') as { lookup(zip: string): ZipEntry | undefined };
    const entry = this.zipcodes.lookup(input.postalCode);
    if (entry === undefined) return undefined;
    // `zipcodes` knows one preferred town per ZIP; others (Queens Village vs Jamaica) may be valid too.
    return { code: entry.state === input.stateCode, city: foldText(entry.city) === foldText(input.city) };
  }

  async validate(input: ValidationInput): Promise<ValidationResult> {
    const line = input.addressLabel ?? `${input.number} ${input.street}`;
    const query = `${line}, ${input.city}, ${input.stateCode} ${input.postalCode}`;
    const found = await this.geocoder.forward({ query, layers: new Set(['address']), countries: [input.countryCode], limit: 20 });
    const postal = this.postalAgrees(input);
    const inTown = (a: GeocodedAddress): boolean =>
      (a.postalCode !== undefined && a.postalCode.toUpperCase().startsWith(input.postalCode.toUpperCase().slice(0, 5))) ||
      (a.city !== undefined && foldText(a.city) === foldText(input.city));
    const exact = found.filter((a) => a.confidence === 'exact' && a.number !== undefined && inTown(a));
    const buildings = new Map<string, GeocodedAddress[]>();
    for (const a of exact) {
      const key = `${a.number}|${foldText(a.street ?? '')}|${a.postalCode ?? a.city}`;
      buildings.set(key, [...(buildings.get(key) ?? []), a]);
    }
    const analysis: string[] = [];
    let status: VerificationStatus;
    let match: GeocodedAddress | undefined;
    if (buildings.size > 1) {
      status = 'ambiguous';
      match = exact[0];
    } else if (buildings.size === 1) {
      const rows = [...buildings.values()][0];
      match = rows[0];
      const units = rows.map((r) => r.unit).filter((u): u is string => u !== undefined);
      if (units.length > 0 && input.unit === undefined) analysis.push('unit:missing');
      if (units.length > 0 && input.unit !== undefined && !units.some((u) => foldText(u) === foldText(input.unit!))) analysis.push('unit:invalid');
      status = postal !== undefined && postal.code && analysis.length === 0 ? 'verified' : 'partially verified';
    } else {
      match = found.find((a) => a.layer === 'address' && inTown(a));
      status = match !== undefined || (postal !== undefined && postal.code && postal.city) ? 'partially verified' : 'unverified';
    }
    return { address: this.answer(input, match), result: analysis.length ? { verificationStatus: status, analysis } : { verificationStatus: status } };
  }

  private answer(input: ValidationInput, match: GeocodedAddress | undefined): Record<string, unknown> {
    const number = (match?.number ?? input.number)?.toUpperCase();
    const street = (match?.street ?? input.street)?.toUpperCase();
    const unit = input.unit?.toUpperCase();
    const line = number !== undefined && street !== undefined ? [number, street, unit].filter(Boolean).join(' ') : input.addressLabel?.toUpperCase();
    const city = input.city.toUpperCase();
    const postal = input.plus4 !== undefined ? `${input.postalCode}-${input.plus4}` : input.postalCode;
    const recordType = recordTypeOf(line ?? '', unit, match);
    const metadata: Record<string, string> = { recordType };
    if (match?.placeLabel !== undefined) metadata.propertyType = 'commercial';
    const out: Record<string, unknown> = {
      addressLabel: line, unit, number, street, city, stateCode: input.stateCode, postalCode: input.postalCode, plus4: input.plus4,
      county: match?.county?.replace(/ County$/, '').toUpperCase(), countryCode: input.countryCode,
      formattedAddress: `${line ? `${line}, ` : ''}${city}, ${input.stateCode} ${postal} ${input.countryCode}`,
      metadata,
    };
    for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
    return out;
  }
}

/** USPS record types from the address text: P post-office box, R rural route, G general delivery, H high-rise (units), S street. */
function recordTypeOf(line: string, unit: string | undefined, match: GeocodedAddress | undefined): string {
  const folded = foldText(line);
  if (/^(p ?o )?box \d|^post office box/.test(folded)) return 'P';
  if (/^(rr|rural route|hc|highway contract) \d/.test(folded)) return 'R';
  if (folded.includes('general delivery')) return 'G';
  if (unit !== undefined || match?.unit !== undefined) return 'H';
  return 'S';
}
