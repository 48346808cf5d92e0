// Where OSRM puts a point on a segment, to the bit, so that snapping picks the segments OSRM picks. OSRM
// keeps coordinates in fixed point (millionths of a degree, rounded half away from zero), projects the
// point onto each segment in Web Mercator, rounds the nearest point back to fixed point, and ranks
// segments by the integer squared distance between those fixed Mercator coordinates. Segments whose
// nearest points round to the same fixed coordinate are one place: OSRM keeps all of them as candidates
// (a point nearest a junction is on every road there) and routes from whichever serves best. A planar
// search agrees with this ranking except within centimetres, where these roundings decide.
const FIXED = 1e6;
const RAD = Math.PI / 180;

/** Rounded half away from zero, as C++'s std::round. */
function roundHalfAway(v: number): number {
  return v < 0 ? -Math.round(-v) : Math.round(v);
}

/** Web Mercator y of a latitude, in degrees of the equator's scale. */
function mercatorY(lat: number): number {
  const f = Math.sin(lat * RAD);
  return (0.5 * Math.log((1 + f) / (1 - f))) / RAD;
}

/** A point's place on a segment: its fixed Mercator coordinate and squared distance (fixed units) from the query. */
export interface FixedPlace {
  x: number;
  y: number;
  squared: number;
}

/** The query point in OSRM's fixed-point Mercator, and places on segments given in stored units (1e-7°). */
export class FixedProjection {
  private readonly x: number;
  private readonly y: number;
  private readonly fixedX: number;
  private readonly fixedY: number;

  constructor(lon: number, lat: number) {
    this.x = roundHalfAway(lon * FIXED) / FIXED;
    this.y = mercatorY(roundHalfAway(lat * FIXED) / FIXED);
    this.fixedX = roundHalfAway(this.x * FIXED);
    this.fixedY = roundHalfAway(this.y * FIXED);
  }

  /** The nearest place on the straight piece from (aLon, aLat) to (bLon, bLat), each in 1e-7°. */
  place(aLon: number, aLat: number, bLon: number, bLat: number): FixedPlace {
    // OSM coordinates (1e-7° integers) become doubles by division, then OSRM's fixed point.
    const ax = fixedOf(aLon) / FIXED, ay = mercatorY(fixedOf(aLat) / FIXED);
    const bx = fixedOf(bLon) / FIXED, by = mercatorY(fixedOf(bLat) / FIXED);
    const dx = bx - ax, dy = by - ay;
    const length2 = dx * dx + dy * dy;
    let nx = ax, ny = ay;
    if (length2 >= Number.EPSILON) {
      let t = (dx * (this.x - ax) + dy * (this.y - ay)) / length2;
      t = t > 1 ? 1 : t < 0 ? 0 : t;
      nx = (1 - t) * ax + bx * t;
      ny = (1 - t) * ay + by * t;
    }
    const x = roundHalfAway(nx * FIXED), y = roundHalfAway(ny * FIXED);
    return { x, y, squared: (x - this.fixedX) ** 2 + (y - this.fixedY) ** 2 };
  }
}

function fixedOf(stored: number): number {
  return roundHalfAway((stored / 1e7) * FIXED);
}
