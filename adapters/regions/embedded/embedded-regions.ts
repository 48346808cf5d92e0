import { performance } from 'node:perf_hooks';
import { caProvinceOfPostalCode } from '../../../core/facts/ca-provinces';
import { usStateByCode } from '../../../core/facts/us-states';
import type { Region, RegionLookup, RegionSet } from '../../../ports/regions';
import { regionId } from '../region-id';
import { loadBundledPostalPoints } from './bundled-postal-points';
import { countryRegion, loadCountryLayer } from './country-layer';
import { loadImportedLayers } from './imported-layers';
import type { PolygonLayer } from './polygon-layer';
import { PostalCentroids } from './postal-centroids';
import { loadUsStateLayer, usStateRegion } from './us-state-layer';

export interface EmbeddedRegionsOptions {
  /** Data directory; boundaries imported into `<dataDir>/regions/` are looked up too. */
  dataDir?: string;
  /**
   * A point outside every country or state polygon but this close to one's boundary
   * takes that region. Covers the generalisation of 1:10m coastlines (Tromsø and
   * Liberty Island sit ~2 km outside them). Default 3000.
   */
  coastToleranceMeters?: number;
  /** A postal code is given only when its point is at most this far away. Default 50000. */
  postalMaxDistanceMeters?: number;
}

export interface EmbeddedRegionsStats {
  /** Time this instance spent loading; the bundled data is shared, so a second instance mostly reads imports. */
  loadMs: number;
  countries: number;
  usStates: number;
  postalCodes: number;
  polygonVertices: number;
  /** Typed-array bytes of the polygon indexes (the heap figure in bench/regions.ts is the full cost). */
  polygonIndexBytes: number;
  imported: Record<string, number>;
  skippedFiles: Array<{ file: string; reason: string }>;
}

interface Loaded {
  countries: PolygonLayer<Region>;
  usStates: PolygonLayer<Region>;
  postal: PostalCentroids;
  imported: Map<string, PolygonLayer<Region>>;
  stats: EmbeddedRegionsStats;
}

const BUNDLED_TYPES = new Set(['country', 'state', 'postalCode']);
/** US territories are ISO countries of their own; their ZIPs are scoped by that code. */
const US_TERRITORIES = new Set(['PR', 'VI', 'GU', 'AS', 'MP']);
const UNITED_STATES = countryRegion('US') as Region;
/**
 * Beyond this the nearest FSA says little about the province: in the north it is
 * often across a border (Iqaluit's nearest FSA point is in Quebec, 420 km away).
 */
const PROVINCE_MAX_METERS = 150_000;

/**
 * Regions from data shipped in npm packages plus boundaries the operator imported.
 *
 * - country: Natural Earth 1:10m polygons (world-atlas);
 * - state: US states and DC from us-atlas polygons; Canadian provinces from the
 *   postal code (FSA) nearest the point, since no province polygons ship;
 * - postalCode: the nearest postal point in the same state (US, ZCTA points) or in
 *   Canada (FSA points), within `postalMaxDistanceMeters`;
 * - dma and any other type: `<dataDir>/regions/<type>.json` from importBoundaries.
 * An imported `country`, `state` or `postalCode` layer wins over the bundled one
 * where it has a polygon.
 *
 * Loads on first use (or `load()`), then answers from memory in microseconds.
 */
export class EmbeddedRegions implements RegionLookup {
  private loaded: Loaded | undefined;
  private readonly coastTolerance: number;
  private readonly postalMax: number;
  private readonly postalRegions = new Map<string, Region>();
  private readonly provinceRegions = new Map<string, Region>();

  constructor(private readonly options: EmbeddedRegionsOptions = {}) {
    this.coastTolerance = options.coastToleranceMeters ?? 3000;
    this.postalMax = options.postalMaxDistanceMeters ?? 50_000;
  }

  /** Loads everything now instead of on the first lookup. Idempotent. */
  load(): EmbeddedRegionsStats {
    return this.data().stats;
  }

  /** Re-reads imported boundaries on the next lookup (call after importBoundaries). */
  reload(): void {
    if (this.loaded === undefined) return;
    const started = performance.now();
    const { layers, skippedFiles } = loadImportedLayers(this.options.dataDir);
    this.loaded.imported = layers;
    this.loaded.stats = { ...this.loaded.stats, imported: countRegions(layers), skippedFiles };
    this.loaded.stats.loadMs += performance.now() - started;
  }

  stats(): EmbeddedRegionsStats | undefined {
    return this.loaded?.stats;
  }

  lookup(point: [number, number]): RegionSet {
    const [lng, lat] = point;
    const result: RegionSet = {};
    if (!Number.isFinite(lng) || !Number.isFinite(lat) || Math.abs(lat) > 90 || Math.abs(lng) > 180) return result;
    const data = this.data();

    for (const [type, layer] of data.imported) {
      if (BUNDLED_TYPES.has(type)) continue;
      const region = layer.containing(lng, lat);
      if (region !== undefined) result[type] = region;
    }

    const found = countryAndState(data, data.imported, lng, lat, this.coastTolerance);
    const country = found.country;
    let state = found.state;

    let postalCode = data.imported.get('postalCode')?.containing(lng, lat);
    if (country?.code === 'CA') {
      // Province: of the nearest FSA up to PROVINCE_MAX_METERS (rural FSAs are huge); postal code: only within range.
      const fsa = data.postal.nearest(lng, lat, 'CA', Math.max(PROVINCE_MAX_METERS, this.postalMax));
      if (fsa !== undefined) {
        if (state === undefined && withinMeters(fsa, lng, lat, PROVINCE_MAX_METERS)) state = this.provinceRegion(fsa.code);
        if (postalCode === undefined && withinMeters(fsa, lng, lat, this.postalMax)) postalCode = this.postalRegion(fsa.code);
      }
    } else if (postalCode === undefined && country !== undefined) {
      const scope = country.code === 'US'
        ? state !== undefined && usStateByCode(state.code) !== undefined ? `US-${state.code}` : undefined
        : US_TERRITORIES.has(country.code) ? country.code : undefined;
      const zip = scope === undefined ? undefined : data.postal.nearest(lng, lat, scope, this.postalMax);
      if (zip !== undefined) postalCode = this.postalRegion(zip.code);
    }

    if (country !== undefined) result.country = country;
    if (state !== undefined) result.state = state;
    if (postalCode !== undefined) result.postalCode = postalCode;
    return result;
  }

  private postalRegion(code: string): Region {
    let region = this.postalRegions.get(code);
    if (region === undefined) {
      region = Object.freeze({ _id: regionId('postalCode', code), type: 'postalCode', name: code, code });
      this.postalRegions.set(code, region);
    }
    return region;
  }

  private provinceRegion(fsa: string): Region | undefined {
    const fact = caProvinceOfPostalCode(fsa);
    if (fact === undefined) return undefined;
    let region = this.provinceRegions.get(fact.code);
    if (region === undefined) {
      region = usStateRegion(fact.code, fact.name);
      this.provinceRegions.set(fact.code, region);
    }
    return region;
  }

  private data(): Loaded {
    if (this.loaded !== undefined) return this.loaded;
    const started = performance.now();
    const { countries, usStates, postal } = bundledData();
    const { layers, skippedFiles } = loadImportedLayers(this.options.dataDir);
    this.loaded = {
      countries,
      usStates,
      postal,
      imported: layers,
      stats: {
        loadMs: performance.now() - started,
        countries: countries.regionCount,
        usStates: usStates.regionCount,
        postalCodes: postal.size,
        polygonVertices: countries.vertexCount + usStates.vertexCount,
        polygonIndexBytes: countries.byteLength + usStates.byteLength,
        imported: countRegions(layers),
        skippedFiles,
      },
    };
    return this.loaded;
  }
}

interface BundledPolygons {
  countries: PolygonLayer<Region>;
  usStates: PolygonLayer<Region>;
}

interface BundledData extends BundledPolygons {
  postal: PostalCentroids;
}

let polygons: BundledPolygons | undefined;
let postal: PostalCentroids | undefined;

/** Package data never changes while the process runs: every instance shares one copy. */
function bundledPolygons(): BundledPolygons {
  polygons ??= { countries: loadCountryLayer(), usStates: loadUsStateLayer() };
  return polygons;
}

function bundledData(): BundledData {
  const { countries, usStates } = bundledPolygons();
  postal ??= new PostalCentroids(loadBundledPostalPoints((lng, lat) => usStates.containing(lng, lat)?.code));
  return { countries, usStates, postal };
}

/** Country and (US) state as `lookup` answers them, before Canadian provinces and postal codes. */
function countryAndState(
  bundled: BundledPolygons, imported: ReadonlyMap<string, PolygonLayer<Region>>, lng: number, lat: number, coastTolerance: number,
): { country?: Region; state?: Region } {
  let country = imported.get('country')?.containing(lng, lat)
    ?? bundled.countries.containing(lng, lat)
    ?? bundled.countries.nearestWithin(lng, lat, coastTolerance);
  let state = imported.get('state')?.containing(lng, lat);
  if (state === undefined && (country === undefined || country.code === 'US')) {
    state = bundled.usStates.containing(lng, lat);
    if (state === undefined && country !== undefined) state = bundled.usStates.nearestWithin(lng, lat, coastTolerance);
    // Census boundaries include inland water that Natural Earth leaves out (the Hudson, say).
    if (state !== undefined && country === undefined) country = UNITED_STATES;
  }
  return { country, state };
}

/**
 * The country `lookup` gives a point when no boundaries are imported, loading only the country and US
 * state polygons: the import's border crossings need no postal data (a good part of the load time).
 */
export function bundledCountryAt(point: [number, number], coastToleranceMeters = 3000): Region | undefined {
  const [lng, lat] = point;
  if (!Number.isFinite(lng) || !Number.isFinite(lat) || Math.abs(lat) > 90 || Math.abs(lng) > 180) return undefined;
  return countryAndState(bundledPolygons(), new Map(), lng, lat, coastToleranceMeters).country;
}

function withinMeters(p: { lng: number; lat: number }, lng: number, lat: number, meters: number): boolean {
  const dx = (p.lng - lng) * 111_320 * Math.cos((lat * Math.PI) / 180);
  const dy = (p.lat - lat) * 111_320;
  return dx * dx + dy * dy <= meters * meters;
}

function countRegions(layers: Map<string, PolygonLayer<Region>>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [type, layer] of layers) out[type] = layer.regionCount;
  return out;
}

export function createEmbeddedRegions(options: EmbeddedRegionsOptions = {}): EmbeddedRegions {
  return new EmbeddedRegions(options);
}
