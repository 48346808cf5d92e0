// A geofence given by `address` (spec: Geofences): geocoded to its centre when `coordinates` are absent;
// with both, they must be near each other and `coordinates` win. Runs on the raw body before the input
// rules, so those rules see coordinates as if the caller had sent them. Polygons ignore `address`.
import type { Geocoder } from '../../../ports/geocoder';
import { haversineMeters } from '../../../core/geo/sphere';
import { BadRequest } from '../../http/errors';
import { isAbsent, readLngLatArray, readString } from '../../http/params';
import { DEFAULT_LAYERS } from '../../http/params/geocoding';

/** Farthest `coordinates` may be from the geocoded address when both are given. */
export const ADDRESS_COORDINATES_MAX_METERS = 1000;

export function geofenceAddressPlacer(geocoder: Geocoder) {
  return async (body: Record<string, unknown>): Promise<Record<string, unknown>> => {
    if (isAbsent(body.address) || body.type === 'polygon') return body;
    const address = readString(body.address, 'address', { maxLength: 512 })!;
    const layers = new Set([...DEFAULT_LAYERS, 'place' as const]);
    const [top] = await geocoder.forward({ query: address, layers, limit: 1 });
    const hasCoordinates = !isAbsent(body.coordinates);
    // A fallback (the street without its number, or only the town of an unknown street) is no centre.
    if (top === undefined || top.confidence === 'fallback') {
      if (hasCoordinates) return body;
      const nearest = top?.formattedAddress === undefined ? '' : ` (only as far as "${top.formattedAddress}")`;
      throw new BadRequest('address', `address "${address.slice(0, 80)}" was not found${nearest}; give coordinates ([longitude,latitude]) instead`);
    }
    if (!hasCoordinates) return { ...body, coordinates: [top.longitude, top.latitude] };
    let given: [number, number] | undefined;
    try {
      given = readLngLatArray(body.coordinates, 'coordinates');
    } catch {
      // The input rules report bad coordinates with their own message.
      return body;
    }
    // A town or postal code is no precise place: only a found address or place is held against coordinates.
    const precise = top.layer === 'address' || top.layer === 'place';
    if (given !== undefined && precise) {
      const meters = haversineMeters(given, [top.longitude, top.latitude]);
      if (meters > ADDRESS_COORDINATES_MAX_METERS) {
        throw new BadRequest('address', `address is ${Math.round(meters)} m from coordinates; when both are given they must be within ${ADDRESS_COORDINATES_MAX_METERS} m`);
      }
    }
    return body;
  };
}
