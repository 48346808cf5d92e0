// The places a request sees: every imported extract's `places/places.json` merged into one index, and
// the bundled airports for IATA codes. Looks for new or re-imported extracts at most every
// `reloadCheckMs` (a readdir and one stat per extract) and swaps in a new index when the set of
// manifests changed: an import renames a whole extract folder into place, so a load never sees half
// of one. A load that fails (a corrupt file) keeps the previous index and is reported once.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { EXTRACT_NAME, MANIFEST_FILE, extractsDir, stageDir } from '../../../data/osm/extract-layout';
import { loadBundledAirports } from '../../../data/places/bundled-airports';
import { PLACES_FILE, readPlacesFile } from '../../../data/places/places-file';
import type { Logger } from '../../http/logger';
import type { Place } from '../../engine/places/place';
import { PlaceIndex } from '../../engine/places/place-index';
import { placeReachM } from '../../engine/places/place-area';

export interface CurrentPlacesOptions {
  dataDir: string;
  reloadCheckMs: number;
  logger: Logger;
}

export class CurrentPlaces {
  private index = new PlaceIndex([]);
  private signature = '';
  private nextCheckMs = 0;
  private airportsByCode: Map<string, Place[]> | undefined;
  private importedAirports = new Map<string, Place[]>();
  /** Farthest a place's area reaches from its centre, metres: how far track looks for candidates. */
  private reach = 0;
  private readonly listeners: Array<(index: PlaceIndex) => void> = [];

  constructor(private readonly options: CurrentPlacesOptions) {}

  /** Called after each reload with the new index (place geofences follow their places). */
  onReload(listener: (index: PlaceIndex) => void): void {
    this.listeners.push(listener);
  }

  /** The index as of `nowMs`, reloading first when extracts changed. */
  current(nowMs: number): PlaceIndex {
    if (nowMs >= this.nextCheckMs) {
      this.nextCheckMs = nowMs + this.options.reloadCheckMs;
      this.reloadIfChanged();
    }
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

  private placesDirs(): Array<{ dir: string; stamp: string }> {
    const root = extractsDir(this.options.dataDir);
    if (!existsSync(root)) return [];
    const out: Array<{ dir: string; stamp: string }> = [];
    for (const name of readdirSync(root).sort()) {
      if (!EXTRACT_NAME.test(name)) continue;
      const manifest = path.join(root, name, MANIFEST_FILE);
      const dir = stageDir(this.options.dataDir, name, 'places');
      try {
        const m = statSync(manifest);
        statSync(path.join(dir, PLACES_FILE));
        out.push({ dir, stamp: `${name}:${m.mtimeMs}:${m.ino}` });
      } catch {
        // No manifest (an import in progress) or no places stage in this extract.
      }
    }
    return out;
  }

  /** Re-reads every extract's places when the set of manifests changed; true when it did. */
  reloadIfChanged(): boolean {
    const dirs = this.placesDirs();
    const signature = dirs.map((d) => d.stamp).join('|');
    if (signature === this.signature) return false;
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
      this.signature = signature;
      this.options.logger.info('places loaded', { extracts: dirs.length, places: places.length });
      for (const l of this.listeners) l(this.index);
    } catch (err) {
      // Not retried until the extracts change again: a broken file would otherwise be re-read per request.
      this.signature = signature;
      this.options.logger.warn('places not reloaded', { error: (err as Error).message });
    }
    return true;
  }
}
