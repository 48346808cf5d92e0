// Radar's formattedAddress, built alike for every geocoder adapter (adapters/geocoder/address-format.ts).
// Issue 32 item 9: the state appears by its code, not by name and code ("Baltimore, Maryland, MD").
import { completeAddress } from '../../adapters/geocoder/address-format';
import type { GeocodedAddress } from '../../ports/geocoder';

const at = { latitude: 0, longitude: 0, geometry: { type: 'Point' as const, coordinates: [0, 0] as [number, number] } };

test.each<[string, Partial<GeocodedAddress>, string]>([
  ['a US address', { layer: 'address', number: '615', street: 'North Wolfe Street', city: 'Baltimore', state: 'Maryland', stateCode: 'MD', postalCode: '21205', countryCode: 'US' }, '615 North Wolfe Street, Baltimore, MD 21205 USA'],
  ['a borough within its city (Radar\'s 20 Jay St sample)', { layer: 'address', number: '20', street: 'Jay St', borough: 'Brooklyn', city: 'New York', state: 'New York', stateCode: 'NY', postalCode: '11201', countryCode: 'US' }, '20 Jay St, Brooklyn, New York, NY 11201 USA'],
  ['a borough that is also the city', { layer: 'address', number: '20', street: 'Jay St', borough: 'Brooklyn', city: 'Brooklyn', state: 'New York', stateCode: 'NY', postalCode: '11201', countryCode: 'US' }, '20 Jay St, Brooklyn, NY 11201 USA'],
  ['a locality', { layer: 'locality', city: 'Baltimore', state: 'Maryland', stateCode: 'MD', countryCode: 'US' }, 'Baltimore, MD USA'],
  ['the state itself is named', { layer: 'state', state: 'Maryland', stateCode: 'MD', countryCode: 'US' }, 'Maryland, USA'],
  ['a European address keeps its order', { layer: 'address', number: '11', street: 'Hagstrasse', city: 'Triesen', postalCode: '9495', countryCode: 'LI' }, 'Hagstrasse 11, 9495 Triesen, Liechtenstein'],
])('%s', (_name, fields, formatted) => {
  expect(completeAddress({ ...at, ...fields } as GeocodedAddress).formattedAddress).toBe(formatted);
});
