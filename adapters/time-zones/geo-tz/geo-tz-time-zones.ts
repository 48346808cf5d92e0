// The "all" dataset: `geo-tz/dist/find-all` because TypeScript's node10 resolution ignores the `exports` map.
import { find, setCache } from 'geo-tz/dist/find-all';
import type { TimeZoneLookup } from '../../../ports/time-zones';
import { LeastRecentlyUsed } from '../../../core/cache/least-recently-used';

export interface GeoTzTimeZonesOptions {
  /**
   * How many decoded zone-boundary tiles geo-tz may keep (all of them would take
   * ~1.4 GB of heap). Default 1024, about 70–80 MB: users cluster in a few metros,
   * whose tiles stay cached (2–5 µs a lookup); uniformly random points worldwide
   * need more tiles than that and cost ~35 µs (bench/regions.ts has the figures).
   * geo-tz's cache is process-wide: the last adapter created sets it.
   */
  cachedTiles?: number;
}

/**
 * Time zones from geo-tz (timezone-boundary-builder polygons), its "all" dataset so
 * that each place gets its own zone id: Oslo is Europe/Oslo and Reykjavik
 * Atlantic/Reykjavik, where geo-tz's default ("since 1970") dataset merges them into
 * Europe/Berlin and Africa/Abidjan because their clocks agree since 1970.
 * Lookups take 2–5 µs once the tile is cached, so there is no result cache of our
 * own: a coarse grid would answer wrongly near zone borders.
 */
export class GeoTzTimeZones implements TimeZoneLookup {
  readonly tileCache: LeastRecentlyUsed<string, unknown>;

  constructor(options: GeoTzTimeZonesOptions = {}) {
    this.tileCache = new LeastRecentlyUsed(options.cachedTiles ?? 1024);
    setCache({ store: this.tileCache });
  }

  zoneAt(point: [number, number]): string | undefined {
    const [lng, lat] = point;
    if (!Number.isFinite(lng) || !Number.isFinite(lat) || Math.abs(lat) > 90 || Math.abs(lng) > 180) return undefined;
    // A few disputed areas have two zones; the first one geo-tz lists is taken.
    return find(lat, lng)[0];
  }
}

export function createGeoTzTimeZones(options: GeoTzTimeZonesOptions = {}): GeoTzTimeZones {
  return new GeoTzTimeZones(options);
}
