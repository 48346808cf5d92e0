// Geofences made from a place (`placeId`) follow the place: after the places are reloaded (an extract
// imported again), every geofence of every project environment that names a placeId is given the
// place's current geometry when it changed. A place missing from the new data leaves its geofences as
// they were (they keep the last geometry they had). Each geofence is rewritten under the same lock as
// an API upsert of its (tag, externalId), re-read inside it, so a concurrent upsert is never undone.
import type { Scope, Store } from '../../../ports/store';
import { placeGeofenceShape } from '../../../core/places/place-area';
import type { PlaceIndex } from '../../../core/places/place-index';
import type { Geofence } from '../../../core/types';
import type { Geofences } from '../../../ports/geofences';
import { taggedLockKey } from '../../api/tagged-lookup';
import { GEOFENCES } from '../../api/collections';

function sameShape(g: Geofence, shape: ReturnType<typeof placeGeofenceShape>): boolean {
  return (
    g.type === shape.type &&
    g.geometryRadius === shape.geometryRadius &&
    JSON.stringify(g.geometryCenter.coordinates) === JSON.stringify(shape.geometryCenter.coordinates) &&
    JSON.stringify(g.geometry.coordinates) === JSON.stringify(shape.geometry.coordinates)
  );
}

/** Rewrites place geofences whose place moved or changed shape; returns how many. */
export async function followPlaces(store: Store, geofences: Geofences, index: PlaceIndex, now: Date): Promise<number> {
  let updated = 0;
  for (const project of await store.projects.list()) {
    for (const live of [false, true]) {
      const scope: Scope = { projectId: project._id, live };
      const stale: Geofence[] = [];
      await store.scan(GEOFENCES, scope, (docs) => {
        for (const g of docs) {
          if (g.placeId === undefined) continue;
          const place = index.get(g.placeId);
          if (place && !sameShape(g, placeGeofenceShape(place))) stale.push(g);
        }
      });
      for (const g of stale) {
        await store.withLock(taggedLockKey('geofence', scope, { tag: g.tag, externalId: g.externalId }), async () => {
          const current = await store.get(GEOFENCES, scope, g._id);
          const place = current?.placeId !== undefined ? index.get(current.placeId) : undefined;
          if (!current || !place) return;
          const shape = placeGeofenceShape(place);
          if (sameShape(current, shape)) return;
          const next: Geofence = { ...current, ...shape, updatedAt: now.toISOString() };
          await geofences.save(scope, [next]);
          updated++;
        });
      }
    }
  }
  return updated;
}
