// Google's encoded polyline algorithm, at 5 or 6 decimal digits. It lives beside the Router port because
// both sides of the port speak it: Valhalla and OSRM send polyline6 shapes, and the routing endpoints write
// polyline5/polyline6 for clients. Points are [lng, lat] on our side, (lat, lng) in the encoding.
import type { LngLat } from '../../ports/router';

export type PolylinePrecision = 5 | 6;

function encodeValue(value: number, out: string[]): void {
  let v = value < 0 ? ~(value << 1) : value << 1;
  while (v >= 0x20) {
    out.push(String.fromCharCode((0x20 | (v & 0x1f)) + 63));
    v >>>= 5;
  }
  out.push(String.fromCharCode(v + 63));
}

export function encodePolyline(points: readonly LngLat[], precision: PolylinePrecision): string {
  const factor = 10 ** precision;
  const out: string[] = [];
  let lastLat = 0;
  let lastLng = 0;
  for (const [lng, lat] of points) {
    const la = Math.round(lat * factor);
    const ln = Math.round(lng * factor);
    encodeValue(la - lastLat, out);
    encodeValue(ln - lastLng, out);
    lastLat = la;
    lastLng = ln;
  }
  return out.join('');
}

/** Throws on a malformed string (a truncated value) rather than returning a wrong shape. */
export function decodePolyline(text: string, precision: PolylinePrecision): LngLat[] {
  const factor = 10 ** precision;
  const points: LngLat[] = [];
  let index = 0;
  let lat = 0;
  let lng = 0;
  const next = (): number => {
    let result = 0;
    let shift = 0;
    let byte: number;
    do {
      if (index >= text.length) throw new Error('truncated polyline');
      byte = text.charCodeAt(index++) - 63;
      if (byte < 0 || byte > 63) throw new Error('invalid polyline character');
      // Multiplication, not <<: seven or more 5-bit groups would overflow a 32-bit shift.
      result += (byte & 0x1f) * 2 ** shift;
      shift += 5;
    } while (byte >= 0x20);
    return result % 2 === 1 ? -(result + 1) / 2 : result / 2;
  };
  while (index < text.length) {
    lat += next();
    lng += next();
    points.push([lng / factor, lat / factor]);
  }
  return points;
}
