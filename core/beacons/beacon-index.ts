// The enabled beacons of one project environment, in memory: found by their radio identifiers (what a
// device ranges), by `_id`, and by distance (the 1 km sync area). Beacons are few per environment
// (hundreds to thousands), so nearness is a scan over packed coordinates rather than a tree.
import { haversineMeters } from '../geo/sphere';
import type { LngLat } from '../types';
import { airKey, type BeaconIdentifiers, type RangedBeacon } from './ranged-beacon';

export interface IndexedBeacon extends BeaconIdentifiers {
  _id: string;
  enabled: boolean;
  geometry: { type: 'Point'; coordinates: LngLat };
  [field: string]: unknown;
}

const METERS_PER_DEGREE_LAT = 111_320;

export class BeaconIndex {
  private readonly byAir = new Map<string, IndexedBeacon>();
  private readonly byId = new Map<string, IndexedBeacon>();
  private readonly list: IndexedBeacon[];
  /** lng, lat pairs of `list`, in order. */
  private readonly coords: Float64Array;

  /** Disabled beacons are left out: they generate no events and are not synced. */
  constructor(beacons: readonly IndexedBeacon[]) {
    this.list = beacons.filter((b) => b.enabled !== false);
    this.coords = new Float64Array(this.list.length * 2);
    this.list.forEach((b, i) => {
      this.coords[i * 2] = b.geometry.coordinates[0];
      this.coords[i * 2 + 1] = b.geometry.coordinates[1];
      this.byId.set(b._id, b);
      const key = airKey(b);
      // Two enabled beacons sharing identifiers are one radio to a device: the first stored wins.
      if (key !== undefined && !this.byAir.has(key)) this.byAir.set(key, b);
    });
  }

  get size(): number {
    return this.list.length;
  }

  get(id: string): IndexedBeacon | undefined {
    return this.byId.get(id);
  }

  /** The known beacons among those a device ranged, each once, in the order first ranged. */
  match(ranged: readonly RangedBeacon[]): IndexedBeacon[] {
    const out: IndexedBeacon[] = [];
    const seen = new Set<string>();
    for (const r of ranged) {
      const key = airKey(r);
      const found = key !== undefined ? this.byAir.get(key) : this.byId.get(r.id as string);
      if (found && !seen.has(found._id)) {
        seen.add(found._id);
        out.push(found);
      }
    }
    return out;
  }

  /** Beacons within `radiusM` of `point`, nearest first, at most `limit`. */
  near(point: LngLat, radiusM: number, limit: number): IndexedBeacon[] {
    const dLat = radiusM / METERS_PER_DEGREE_LAT;
    const dLng = radiusM / (METERS_PER_DEGREE_LAT * Math.max(0.01, Math.cos((point[1] * Math.PI) / 180)));
    const hits: Array<{ i: number; d: number }> = [];
    const c = this.coords;
    for (let i = 0; i < this.list.length; i++) {
      const lat = c[i * 2 + 1];
      if (Math.abs(lat - point[1]) > dLat) continue;
      let dx = Math.abs(c[i * 2] - point[0]);
      if (dx > 180) dx = 360 - dx;
      if (dx > dLng) continue;
      const d = haversineMeters(point, [c[i * 2], lat]);
      if (d <= radiusM) hits.push({ i, d });
    }
    hits.sort((a, b) => a.d - b.d);
    return hits.slice(0, limit).map(({ i }) => this.list[i]);
  }
}
