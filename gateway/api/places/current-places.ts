// The places a request sees: every imported extract's `places/places.json` merged into one index, and
// the bundled airports for IATA codes. The extract catalog (services.extracts) says when the set of
// extracts changed (an import or removal finished); the index is then rebuilt and swapped in whole,
// so a request never sees half an import. A load that fails (a corrupt file) keeps the previous index
// and is logged once.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadBundledAirports } from '../../../data/places/bundled-airports';
import { PLACES_FILE, readPlacesFile } from '../../../data/places/places-file';
import type { ExtractCatalog, LoadedExtract } from '../../jobs/extract-catalog';
import type { Logger } from '../../http/logger';
import type { Place } from '../../engine/places/place';
import { PlaceIndex } from '../../engine/places/place-index';
import { placeReachM } from '../../engine/places/place-area';

export interface CurrentPlacesOptions {
  extracts: ExtractCatalog;
  logger: Logger;
}

export class CurrentPlaces {
  private index = new PlaceIndex([]);
  private loaded = false;
  private airportsByCode: Map<string, Place[]> | undefined;
  private importedAirports = new Map<string, Place[]>();
  /** Farthest a place's area reaches from its centre, metres: how far track looks for candidates. */
  private reach = 0;
  private readonly listeners: Array<(index: PlaceIndex) => void> = [];

  constructor(private readonly options: CurrentPlacesOptions) {
    options.extracts.subscribe((extracts) => this.load(extracts));
  }

  /** Called after each reload with the new index (place geofences follow their places). */
  onReload(listener: (index: PlaceIndex) => void): void {
    this.listeners.push(listener);
  }

  /** The index as of `nowMs`, reloading first when extracts changed. */
  current(nowMs: number): PlaceIndex {
    const extracts = this.options.extracts.current(nowMs);
    // The catalog may have read the folder before this object subscribed (start-up).
    if (!this.loaded) this.load(extracts);
    return this.index;
  }

  get reachM(): number {
    return this.reach;
  }

  /** Airports with this IATA code: imported ones (with their OSM outline) first, else the bundled table. */
  airports(code: string, nowMs: number): Place[] {
    this.current(nowMs);
    const imported = this.importedAirports.get(code);
    if (imported?.length) return imported;
    if (!this.airportsByCode) {
      this.airportsByCode = new Map();
      for (const a of loadBundledAirports()) {
        const list = this.airportsByCode.get(a.iata!);
        if (list) list.push(a);
        else this.airportsByCode.set(a.iata!, [a]);
      }
    }
    return this.airportsByCode.get(code) ?? [];
  }

  private load(extracts: readonly LoadedExtract[]): void {
    this.loaded = true;
    const dirs = extracts.map((e) => ({ name: e.name, dir: path.join(e.dir, 'places') })).filter((d) => existsSync(path.join(d.dir, PLACES_FILE)));
    try {
      const seen = new Set<string>();
      const places: Place[] = [];
      for (const { dir } of dirs) {
        for (const p of readPlacesFile(dir).places) {
          // Overlapping extracts hold the same OSM objects; the first extract (by name) keeps them.
          if (seen.has(p._id)) continue;
          seen.add(p._id);
          places.push(p);
        }
      }
      const airports = new Map<string, Place[]>();
      let reach = 0;
      for (const p of places) {
        reach = Math.max(reach, placeReachM(p));
        if (p.iata === undefined) continue;
        const list = airports.get(p.iata);
        if (list) list.push(p);
        else airports.set(p.iata, [p]);
      }
      this.index = new PlaceIndex(places);
      this.importedAirports = airports;
      this.reach = reach;
      this.options.logger.info('places loaded', { extracts: dirs.length, places: places.length });
      for (const l of this.listeners) l(this.index);
    } catch (err) {
      // Not retried until the extracts change again: a broken file would otherwise be re-read per request.
      this.options.logger.warn('places not reloaded; the previous places stay', { error: (err as Error).message });
    }
  }
}
