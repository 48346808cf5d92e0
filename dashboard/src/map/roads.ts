// The operator's imported road network as a base layer: GET /v1/data/roads answers the road lines in
// view from every imported extract. Without an import (or on a gateway without the endpoint) the map
// keeps its graticule and outlines.
import L from 'leaflet';
import type { Api } from '../api';
import { importedExtracts } from './extracts';

/** Below this zoom a city's roads are a grey smear: not worth the bytes. */
const MIN_ZOOM = 12;

/** `drawn` is called after each draw: the base map's areas go back under the new lines. */
export async function addRoads(map: L.Map, api: Api, drawn: () => void = () => undefined): Promise<void> {
  const extracts = await importedExtracts(api);
  if (extracts.length === 0) return;
  const layer = L.layerGroup().addTo(map);
  let generation = 0;
  const draw = async () => {
    const mine = ++generation;
    if (map.getZoom() < MIN_ZOOM) return layer.clearLayers();
    const b = map.getBounds();
    try {
      const { roads } = await api.get('/v1/data/roads', { bbox: [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()].map((v) => v.toFixed(5)).join(',') });
      if (mine !== generation) return;
      layer.clearLayers();
      for (const road of roads ?? []) {
        // On the map's one vector renderer, under the shapes it draws (basemap.ts says why).
        L.polyline((road.coordinates as Array<[number, number]>).map(([x, y]) => [y, x] as [number, number]), {
          color: '#b8c4cf', weight: road.major ? 3 : 1.5, interactive: false,
        }).addTo(layer).bringToBack();
      }
      drawn();
    } catch {
      // A failed base-layer fetch leaves the map as it was.
    }
  };
  map.on('moveend', () => void draw());
  void draw();
}
