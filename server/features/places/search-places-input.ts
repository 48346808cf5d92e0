// Parameters of GET /v1/search/places (spec "Search places"): `near` (required unless `iataCode`),
// `chains` and/or `categories` (one of them required unless `iataCode`), `iataCode` (3 letters),
// `chainMetadata[key]` filters (values typed by inference), `radius` 1–10000 m (default 1000),
// `limit` 1–100 (default 10).
import { BadRequest } from '../../http/errors';
import { readBracketFilters, readLatLng, readList, readNumber, readString } from '../../http/params';
import type { LngLat, Metadata } from '../../../core/types';
import { readLimit } from '../../api/list-query';

export interface SearchPlacesInput {
  near?: LngLat;
  /** As given: chain slugs or the caller's IDs (chainMappings). */
  chains?: string[];
  categories?: string[];
  iataCode?: string;
  chainMetadata?: Metadata;
  radius: number;
  limit: number;
}

const MAX_LIST_ENTRIES = 100;
const SLUG = /^[a-z0-9][a-z0-9._-]*$/;

function readSlugList(raw: unknown, param: string, pattern?: RegExp): string[] | undefined {
  const list = readList(raw, param);
  if (list === undefined) return undefined;
  if (list.length > MAX_LIST_ENTRIES) throw new BadRequest(param, `${param} can name at most ${MAX_LIST_ENTRIES} entries`);
  for (const item of list) {
    if (item.length > 256) throw new BadRequest(param, `${param} entries must be at most 256 characters`);
    if (pattern && !pattern.test(item)) throw new BadRequest(param, `${param} entries must be slugs like "food-beverage" (lower-case letters, digits, "-"), got "${item.slice(0, 64)}"`);
  }
  return list;
}

export function readSearchPlaces(query: Record<string, unknown>): SearchPlacesInput {
  const iataCode = readString(query.iataCode, 'iataCode', { maxLength: 3, pattern: /^[A-Za-z]{3}$/, patternMessage: 'iataCode must be a 3-letter IATA airport code' })?.toUpperCase();
  const near = readLatLng(query.near, 'near');
  const chains = readSlugList(query.chains, 'chains');
  const categories = readSlugList(query.categories, 'categories', SLUG);
  const chainMetadata = readBracketFilters(query, 'chainMetadata');
  const radius = readNumber(query.radius, 'radius', { min: 1, max: 10_000 }) ?? 1000;
  const limit = readLimit(query, 100, 10);
  if (iataCode === undefined) {
    if (near === undefined) throw new BadRequest('near', 'near is required ("latitude,longitude")');
    if (chains === undefined && categories === undefined) {
      throw new BadRequest('chains', 'chains or categories is required (or iataCode on its own)');
    }
  }
  return { near, chains, categories, iataCode, chainMetadata, radius, limit };
}
