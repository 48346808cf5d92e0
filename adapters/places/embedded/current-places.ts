// The places a request sees: every imported extract's `places/places.bin` merged into one index, and
// the bundled airports for IATA codes. Each file is read into one buffer and served from its columns
// (core/formats/places/places-table.ts): no object per place is kept, so a region's places cost their file size. The extract catalog (services.extracts) says when the set of
// extracts changed (an import or removal finished); the index is then rebuilt and swapped in whole,
// so a request never sees half an import. A load that fails (a corrupt file) keeps the previous index
// and is logged once.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadBundledAirports } from './bundled-airports';
import { PLACES_FILE, openPlacesTable } from '../../../core/formats/places/places-file';
import type { ExtractCatalog, LoadedExtract } from '../../extracts/extract-catalog';
import type { Logger } from '../../../ports/logger';
import type { Place } from '../../../core/places/place';
import { PlaceIndex } from '../../../core/places/place-index';
import { placeReachM } from '../../../core/places/place-area';

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
      const tables = dirs.map(({ dir }) => openPlacesTable(dir));
      // Overlapping extracts hold the same OSM objects; the index keeps them from the first extract (by name).
      const index = new PlaceIndex({ sources: tables });
      const airports = new Map<string, Place[]>();
      const airportIds = new Set<string>();
      let reach = 0;
      tables.forEach((table) => {
        for (let row = 0; row < table.size; row++) {
          // One place at a time, dropped at once: the reach is a maximum over the places' areas.
          reach = Math.max(reach, placeReachM(table.placeAt(row)));
        }
        for (const row of table.iataRows()) {
          const p = index.get(table.idAt(row));
          if (p?.iata === undefined || airportIds.has(p._id)) continue;
          airportIds.add(p._id);
          const list = airports.get(p.iata);
          if (list) list.push(p);
          else airports.set(p.iata, [p]);
        }
      });
      this.index = index;
      this.importedAirports = airports;
      this.reach = reach;
      this.options.logger.info('places loaded', { extracts: dirs.length, places: index.size, bytes: tables.reduce((s, t) => s + t.bytes, 0) });
      for (const l of this.listeners) l(this.index);
    } catch (err) {
      // Not retried until the extracts change again: a broken file would otherwise be re-read per request.
      this.options.logger.warn('places not reloaded; the previous places stay', { error: (err as Error).message });
    }
  }
}
