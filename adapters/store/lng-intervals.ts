// The longitudes a bounding box covers, as intervals inside [-180, 180]. Callers build boxes around a
// point by adding degrees, so near the antimeridian they hand over minLng < -180 or maxLng > 180: such a box
// covers two intervals, one on each side. A box with minLng > maxLng is empty, like one with minLat > maxLat.
import type { BBox } from '../../ports/store';

export function lngIntervals(box: Pick<BBox, 'minLng' | 'maxLng'>): Array<[number, number]> {
  let min = box.minLng;
  let max = box.maxLng;
  if (!(min <= max)) return [];
  if (max - min >= 360) return [[-180, 180]];
  const turns = Math.floor((min + 180) / 360);
  min -= turns * 360;
  max -= turns * 360;
  return max <= 180 ? [[min, max]] : [[min, 180], [-180, max - 360]];
}
