// The Geocoder port over a Pelias API (/v1/search, /v1/reverse, /v1/autocomplete), for operators who
// run Pelias and Elasticsearch, over the shared engine client (deadline, bounded body). A non-200 answer
// or a body that is not a FeatureCollection is an error (the gateway answers 503), an empty collection is
// no answers.
import { EngineHttp } from '../../engine-http/engine-http';
import type { AutocompleteQuery, ForwardQuery, GeocodedAddress, Geocoder, GeocodeLayer, ReverseQuery } from '../../../ports/geocoder';
import { PELIAS_LAYERS, peliasToAddress, type PeliasFeature } from './pelias-feature';

export interface PeliasOptions {
  /** Base URL of the Pelias API ("http://pelias-api:4000"); paths are appended to it. */
  url: string;
  timeoutMs: number;
  /** Extra query parameters on every call (an `api_key` for hosted Pelias). */
  extraParams?: Record<string, string>;
}

/** Largest answer read from Pelias: a page of features is a few hundred kilobytes at most. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

export class PeliasGeocoder implements Geocoder {
  readonly name = 'pelias';
  private readonly http: EngineHttp;

  constructor(private readonly opts: PeliasOptions) {
    this.http = new EngineHttp({ engine: 'pelias', baseUrl: opts.url, timeoutMs: opts.timeoutMs, maxBytes: MAX_BODY_BYTES });
  }

  close(): Promise<void> {
    return this.http.close();
  }

  forward(q: ForwardQuery): Promise<GeocodedAddress[]> {
    return this.call('/v1/search', { text: q.query, size: String(q.limit), ...layerParams(q.layers), ...countryParams(q.countries), lang: q.lang }, q.layers);
  }

  autocomplete(q: AutocompleteQuery): Promise<GeocodedAddress[]> {
    const focus: Record<string, string> = q.near === undefined ? {} : { 'focus.point.lat': String(q.near[1]), 'focus.point.lon': String(q.near[0]) };
    return this.call('/v1/autocomplete', { text: q.query, size: String(q.limit), ...focus, ...layerParams(q.layers), ...countryParams(q.countries), lang: q.lang }, q.layers);
  }

  reverse(q: ReverseQuery): Promise<GeocodedAddress[]> {
    return this.call('/v1/reverse', { 'point.lat': String(q.point[1]), 'point.lon': String(q.point[0]), size: String(q.limit), ...layerParams(q.layers), lang: q.lang }, q.layers);
  }

  private async call(pathname: string, params: Record<string, string | undefined>, layers: ReadonlySet<GeocodeLayer>): Promise<GeocodedAddress[]> {
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries({ ...params, ...this.opts.extraParams })) if (v !== undefined) query.set(k, v);
    const reply = await this.http.get(`${pathname}?${query.toString()}`);
    if (reply.status !== 200) throw new Error(`Pelias answered ${reply.status} to ${pathname}`);
    const parsed = (reply.body ?? {}) as { type?: unknown; features?: unknown };
    if (parsed.type !== 'FeatureCollection' || !Array.isArray(parsed.features)) throw new Error(`Pelias answered ${pathname} without a FeatureCollection`);
    return (parsed.features as PeliasFeature[]).flatMap((f) => {
      const a = peliasToAddress(f);
      return a !== undefined && layers.has(a.layer) ? [a] : [];
    });
  }
}

function layerParams(layers: ReadonlySet<GeocodeLayer>): Record<string, string> {
  return { layers: [...layers].flatMap((l) => PELIAS_LAYERS[l]).join(',') };
}

function countryParams(countries: readonly string[] | undefined): Record<string, string> {
  return countries === undefined ? {} : { 'boundary.country': countries.join(',') };
}
