// Shared by the SQLite and PostgreSQL tables tests: a collection declared wide, then narrowed, so that
// define() drops the indexes the declaration no longer asks for; the queries must still answer the same.
import { put, type Doc, type Scope, type Store } from '../../ports/store';
import { named } from '../support/named-collection';

export const WIDE_THINGS = { keys: ['tag', 'externalId'], point: 'geometry', due: 'expiresAt' } as const;
export const NARROW_THINGS = { keys: ['tag'], orders: ['updatedAt'] } as const;

/** 20 things, one second apart, alternately odd and even, along a line of longitudes. */
export function thingDocs(at: string): Doc[] {
  return Array.from({ length: 20 }, (_, i) => ({
    _id: `t${String(i).padStart(2, '0')}`, createdAt: at, updatedAt: new Date(Date.parse(at) + i * 1000).toISOString(),
    tag: i % 2 ? 'odd' : 'even', externalId: `x${i}`, geometry: { type: 'Point', coordinates: [2 + i / 100, 48] }, expiresAt: at,
  }));
}

/** After narrowing: every query answers as it did, with or without an index behind it. */
export async function expectThingsStillAnswer(store: Store, scope: Scope, docs: Doc[]): Promise<void> {
  expect((await store.list(named('things'), scope, { limit: 3, sortBy: 'createdAt', order: 'asc' })).docs.map((d) => d._id)).toEqual(['t00', 't01', 't02']);
  expect((await store.list(named('things'), scope, { limit: 2, sortBy: 'updatedAt', equals: { tag: 'odd' } })).docs.map((d) => d._id)).toEqual(['t19', 't17']);
  expect((await store.list(named('things'), scope, { limit: 50, sortBy: 'updatedAt', equals: { externalId: 'x4' } })).docs.map((d) => d._id)).toEqual(['t04']);
  expect((await store.within(named('things'), scope, { minLng: 2.025, maxLng: 2.055, minLat: 47, maxLat: 49 }, 10)).map((d) => d._id).sort()).toEqual(['t03', 't04', 't05']);
  await store.write([put(named('things'), scope, { ...docs[0], updatedAt: '2026-02-01T00:00:00.000Z' })]);
  expect((await store.list(named('things'), scope, { limit: 1, sortBy: 'updatedAt' })).docs.map((d) => d._id)).toEqual(['t00']);
}
