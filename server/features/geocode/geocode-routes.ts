// Forward and reverse geocoding, autocomplete (and the widget's click report) and address validation
// (spec "Geocoding", "Search", "Address validation"). Each handler reads its parameters and calls the
// service; docs/geocoding.md describes what the answers hold.
import type { IpLocator } from '../../../ports/ip-locator';
import { isPublicAddress, parseAddress } from '../../../adapters/ip-locator/public-address';
import type { LngLat } from '../../../core/types';
import { BadRequest } from '../../http/errors';
import { AUTOCOMPLETE_DEFAULT_LAYERS, countryCodesField, geocodeQueryField, langField, layersField, readString, required } from '../../http/params';
import { integer, latLng, paramSpec, takes, text } from '../../http/params/param-spec';
import type { Route } from '../../http/route';
import type { AddressValidator, ValidationInput } from './address-validation';
import type { GeocodeService } from './geocode-service';

const FORWARD_LIMIT = 10;
// Radar answers the one nearest address.
const REVERSE_LIMIT = 1;

const FORWARD = paramSpec('query', { query: geocodeQueryField(), layers: layersField(), country: countryCodesField(), lang: langField() });
const REVERSE = paramSpec('query', { coordinates: latLng().required(), layers: layersField(), lang: langField() });
const AUTOCOMPLETE = paramSpec('query', {
  query: geocodeQueryField(),
  near: latLng().describe('"latitude,longitude" to bias towards; absent: the caller\'s IP location when known'),
  layers: layersField(AUTOCOMPLETE_DEFAULT_LAYERS),
  limit: integer({ min: 1, max: 100 }).default(10),
  countryCode: countryCodesField(),
  lang: langField(),
});
const CLICK = paramSpec('body', { query: text({ maxLength: 512 }), selectedIndex: integer({ min: 0, max: 100 }) });

export function geocodeRoutes(service: GeocodeService, validator: AddressValidator, ipLocator: IpLocator): Route[] {
  return [
    {
      method: 'GET', path: '/v1/geocode/forward', auth: 'publishable', rate: { name: 'geocode-forward', perSecond: 10 },
      ...takes(FORWARD, async (ctx, { query, layers, country: countries, lang }) => (
        { body: { addresses: await service.forward({ query, layers, countries, lang, limit: FORWARD_LIMIT }, ctx.now) } }
      )),
    },
    {
      method: 'GET', path: '/v1/geocode/reverse', auth: 'publishable', rate: { name: 'geocode-reverse', perSecond: 10 },
      ...takes(REVERSE, async (ctx, { coordinates: point, layers, lang }) => (
        { body: { addresses: await service.reverse({ point, layers, lang, limit: REVERSE_LIMIT }, ctx.now) } }
      )),
    },
    {
      method: 'GET', path: '/v1/search/autocomplete', auth: 'publishable', rate: { name: 'search-autocomplete', perSecond: 10 },
      ...takes(AUTOCOMPLETE, async (ctx, { query, near, layers, limit, countryCode: countries, lang }) => (
        { body: { addresses: await service.autocomplete({ query, layers, countries, lang, limit, near: near ?? ipNear(ipLocator, ctx.ip) }, ctx.now) } }
      )),
    },
    {
      // Radar's autocomplete widget reports which suggestion was picked. Waymark keeps no analytics:
      // the report is checked for shape and acknowledged so the widget carries on.
      method: 'POST', path: '/v1/search/autocomplete/click', auth: 'publishable', rate: { name: 'search-autocomplete-click', perSecond: 10 },
      ...takes(CLICK, async () => ({})),
    },
    {
      method: 'GET', path: '/v1/addresses/validate', auth: 'publishable', rate: { name: 'addresses-validate', perSecond: 100 },
      handler: async (ctx) => ({ body: { ...(await validator.validate(readValidationInput(ctx.query))) } }),
    },
  ];
}

/** The caller's IP location, when its address is public and the IP database knows it. */
function ipNear(locator: IpLocator, ip: string): LngLat | undefined {
  const parsed = parseAddress(ip);
  if (parsed === undefined || !isPublicAddress(parsed)) return undefined;
  try {
    const found = locator.locate(parsed.family === 4 ? parsed.text : ip);
    return found === undefined ? undefined : [found.longitude, found.latitude];
  } catch {
    // The bias is optional: a failing IP database leaves autocomplete unbiased rather than failing it.
    return undefined;
  }
}

function readValidationInput(q: Record<string, unknown>): ValidationInput {
  const countryCode = required(readString(q.countryCode, 'countryCode', { maxLength: 2 }), 'countryCode').toUpperCase();
  if (countryCode !== 'US' && countryCode !== 'CA') throw new BadRequest('countryCode', 'countryCode must be US or CA: address validation covers the United States and Canada');
  const stateCode = required(readString(q.stateCode, 'stateCode', { pattern: /^[A-Za-z]{2}$/, patternMessage: 'stateCode must be a 2-letter state or province code' }), 'stateCode').toUpperCase();
  const city = required(readString(q.city, 'city', { maxLength: 200 }), 'city');
  const rawPostal = required(readString(q.postalCode, 'postalCode', { maxLength: 10 }), 'postalCode').trim().toUpperCase();
  let postalCode: string;
  let plus4: string | undefined;
  if (countryCode === 'US') {
    const m = /^(\d{5})(?:-?(\d{4}))?$/.exec(rawPostal);
    if (!m) throw new BadRequest('postalCode', 'postalCode must be a 5-digit ZIP code, optionally with its plus-4 (21205-1234)');
    [postalCode, plus4] = [m[1], m[2]];
  } else {
    const m = /^([A-Z]\d[A-Z]) ?(\d[A-Z]\d)$/.exec(rawPostal);
    if (!m) throw new BadRequest('postalCode', 'postalCode must be a Canadian postal code (A1A 1A1)');
    postalCode = `${m[1]} ${m[2]}`;
  }
  const number = readString(q.number, 'number', { maxLength: 20 });
  const street = readString(q.street, 'street', { maxLength: 200 });
  const unit = readString(q.unit, 'unit', { maxLength: 50 });
  const addressLabel = readString(q.addressLabel, 'addressLabel', { maxLength: 300 });
  if (addressLabel === undefined && (number === undefined || street === undefined)) {
    throw new BadRequest(number === undefined ? 'number' : 'street', 'number and street are required unless addressLabel is given');
  }
  return { countryCode, stateCode, city, postalCode, plus4, number, street, unit, addressLabel };
}
