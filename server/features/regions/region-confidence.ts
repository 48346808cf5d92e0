// Confidence of a region event (1–3), graded like geofence confidence (DESIGN §3 step 5): the share of
// the accuracy disk inside the region entered (outside the region exited). Region layers answer only
// "which region holds this point", so the share is estimated from sample points of the disk: eight
// compass directions at r and eight at r/√2 (the circle that halves the disk's area).
//   3: every sample agrees (the disk lies in the region, up to the sampling);
//   2: at least half of them agree;
//   1: fewer.
// Region changes are rare (a border crossing), and the samples are looked up once per update and
// shared by its events, so the 16 lookups (~5 µs each) cost nothing on ordinary updates.
import type { RegionSet } from '../../../ports/regions';
import type { Confidence } from '../../../core/geofencing';
import type { LngLat } from '../../../core/types';
import type { RegionTransition } from './region-transitions';

const METERS_PER_DEGREE = 111_320;
const DIRECTIONS = 8;

/** Points of the accuracy disk around `location` ([lng, lat]) with radius `accuracyM`. */
export function diskSamples(location: LngLat, accuracyM: number): LngLat[] {
  const [lng, lat] = location;
  const out: LngLat[] = [];
  const cosLat = Math.max(Math.cos((lat * Math.PI) / 180), 1e-6);
  for (const radius of [accuracyM, accuracyM / Math.SQRT2]) {
    for (let i = 0; i < DIRECTIONS; i++) {
      const angle = (2 * Math.PI * i) / DIRECTIONS;
      const sampleLat = Math.max(-90, Math.min(90, lat + (radius * Math.cos(angle)) / METERS_PER_DEGREE));
      let sampleLng = lng + (radius * Math.sin(angle)) / (METERS_PER_DEGREE * cosLat);
      if (sampleLng > 180) sampleLng -= 360;
      else if (sampleLng < -180) sampleLng += 360;
      out.push([sampleLng, sampleLat]);
    }
  }
  return out;
}

/**
 * Grades every transition of one update. `lookup` runs on the disk samples only when there is a
 * transition and the accuracy is positive; with r = 0 (or none reported) the point is all there is: 3.
 */
export function regionConfidences(
  transitions: readonly RegionTransition[],
  location: LngLat,
  accuracyM: number,
  lookup: (point: LngLat) => RegionSet,
): Confidence[] {
  if (transitions.length === 0) return [];
  if (!(accuracyM > 0)) return transitions.map(() => 3);
  const samples = diskSamples(location, accuracyM).map(lookup);
  return transitions.map((t) => {
    let agreeing = 0;
    for (const found of samples) {
      const inRegion = found[t.regionType]?._id === t.region._id;
      if (inRegion === (t.direction === 'entered')) agreeing++;
    }
    if (agreeing === samples.length) return 3;
    return agreeing * 2 >= samples.length ? 2 : 1;
  });
}
