// The regions a request sees: the Regions port, plus the boundary watch that reloads operator imports
// made while the gateway runs. Context and track both read regions through this one object.
import type { RegionLookup, RegionSet } from '../../../ports/regions';
import type { LngLat } from '../../../core/types';
import { BoundaryWatch } from './boundary-watch';

/** A Regions adapter that can re-read imported boundaries (the embedded one can). */
export interface ReloadableRegions extends RegionLookup {
  reload(): void;
}

export interface CurrentRegionsOptions {
  dataDir: string;
  /** Least time between two looks for new imports, ms; 0 looks on every lookup. */
  reloadCheckMs: number;
}

export class CurrentRegions {
  private readonly watch: BoundaryWatch;

  constructor(
    readonly regions: ReloadableRegions,
    options: CurrentRegionsOptions,
  ) {
    this.watch = new BoundaryWatch({ dataDir: options.dataDir, checkMs: options.reloadCheckMs, onChange: () => regions.reload() });
  }

  /** Regions containing `point` ([lng, lat]); `now` is the request's clock reading. */
  lookup(point: LngLat, now: Date): RegionSet {
    this.watch.check(now.getTime());
    return this.regions.lookup(point);
  }
}
