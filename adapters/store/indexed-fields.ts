// The values a document contributes to its collection's indexed columns, as every adapter stores
// them: the declared keys as text (null when absent), the point's longitude and latitude, and the due
// date when it is an ISO string.
import type { CollectionSpec } from '../../ports/store';

/** Key columns every adapter provides; a collection declares at most this many keys. */
export const KEY_SLOTS = 4;

export interface IndexedFields {
  /** KEY_SLOTS entries, in the order of the collection's declared keys. */
  keys: Array<string | null>;
  lng: number | null;
  lat: number | null;
  due: string | null;
}

export function indexedFields(spec: CollectionSpec, doc: Record<string, unknown>): IndexedFields {
  const keys: Array<string | null> = [];
  for (let i = 0; i < KEY_SLOTS; i++) {
    const field = spec.keys[i];
    const value = field === undefined ? undefined : doc[field];
    keys.push(value === undefined || value === null ? null : String(value));
  }
  let lng: number | null = null;
  let lat: number | null = null;
  if (spec.point) {
    const coords = (doc[spec.point] as { coordinates?: [number, number] } | undefined)?.coordinates;
    if (coords) [lng, lat] = coords;
  }
  const due = spec.due ? doc[spec.due] : undefined;
  return { keys, lng, lat, due: typeof due === 'string' ? due : null };
}
