// A map for one thing (a user, a trip, a geofence): the graticule and, when imported, the base map and roads,
// fitted to what it shows. Removed when the view is left.
import L from 'leaflet';
import type { Api } from '../api';
import type { ViewContext } from '../context';
import { addGraticule } from './basemap';
import { addRoads } from './roads';
import { addBasemap } from './basemap-layer';

export function smallMap(ctx: ViewContext, el: HTMLElement): L.Map {
  const map = L.map(el, { preferCanvas: true, zoomSnap: 0.5 });
  ctx.onLeave(() => map.remove());
  return map;
}

/** Fits the map to `points` ([lat, lng]), or the world without any, then adds the base layers. */
export function fitAndDecorate(map: L.Map, api: Api, points: Array<[number, number]>): void {
  if (points.length) map.fitBounds(L.latLngBounds(points).pad(0.25), { maxZoom: 16, animate: false });
  else map.setView([20, 0], 2, { animate: false });
  const graticule = addGraticule(map);
  const basemap = addBasemap(map, api, graticule.toBack);
  void addRoads(map, api, () => void basemap.then((b) => b.sendAreasBack()));
}
