// The offline base map: a graticule, country and US state outlines shipped with the dashboard, and the
// operator's imported road network when the gateway has one. No tile or font server is ever contacted.
// Every base layer is drawn by the map's one vector renderer, under what else it draws (bringToBack):
// each canvas of a page costs its compositor a copy on every frame of a pan, and a trace of the map's
// zoom and pan counted four where two hold the geofences and the users.
import L from 'leaflet';
import { feature } from 'topojson-client';

/** Outlines converted between two yields to the page. */
const CHUNK = 16;

const LINE = { color: '#9fb3c8', weight: 1, interactive: false } as const;

/** Graticule spacing: the power of ten of degrees that puts lines at least ~100 px apart at this zoom. */
function spacingFor(zoom: number): number {
  const degreesPer100Px = (100 * 360) / (256 * 2 ** zoom);
  return Math.min(10, 10 ** Math.ceil(Math.log10(degreesPer100Px)));
}

export function addGraticule(map: L.Map): void {
  const layer = L.layerGroup().addTo(map);
  const draw = () => {
    layer.clearLayers();
    const b = map.getBounds();
    const step = spacingFor(map.getZoom());
    const west = Math.max(-180, Math.floor(b.getWest() / step) * step);
    const east = Math.min(180, Math.ceil(b.getEast() / step) * step);
    const south = Math.max(-85, Math.floor(b.getSouth() / step) * step);
    const north = Math.min(85, Math.ceil(b.getNorth() / step) * step);
    // Bounded: at most ~60 lines each way whatever the window size.
    for (let x = west, n = 0; x <= east && n < 60; x += step, n++) L.polyline([[south, x], [north, x]], { ...LINE, opacity: 0.5 }).addTo(layer).bringToBack();
    for (let y = south, n = 0; y <= north && n < 60; y += step, n++) L.polyline([[y, west], [y, east]], { ...LINE, opacity: 0.5 }).addTo(layer).bringToBack();
  };
  map.on('moveend', draw);
  draw();
}

async function outlines(url: string, object: string, style: L.PathOptions, map: L.Map): Promise<void> {
  const res = await fetch(url);
  if (!res.ok) return;
  const topology = await res.json();
  // One layer per country or state, on the map only while its box meets the view: Leaflet projects
  // every point of every layer on the map at each zoom, and all the world's outlines made the longest
  // frames of a zoom at city scale, where two or three of them show. Made CHUNK outlines at a time, so
  // that converting them never holds the page for one long task.
  const geometries = topology.objects[object].geometries as unknown[];
  const parts: L.Polyline[] = [];
  for (let i = 0; i < geometries.length; i += CHUNK) {
    for (const g of geometries.slice(i, i + CHUNK)) {
      const one = feature(topology, g as any);
      parts.push(...(L.geoJSON(one as any, { style: { ...style, fill: false, interactive: false } } as L.GeoJSONOptions).getLayers() as L.Polyline[]));
    }
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  const boxes = parts.map((p) => p.getBounds());
  const show = () => {
    const view = map.getBounds().pad(0.5);
    parts.forEach((p, i) => {
      const wanted = view.intersects(boxes[i]);
      if (wanted && !map.hasLayer(p)) p.addTo(map).bringToBack();
      else if (!wanted && map.hasLayer(p)) p.removeFrom(map);
    });
  };
  map.on('moveend', show);
  show();
}

export function addOutlines(map: L.Map): void {
  void outlines('countries.json', 'countries', { color: '#7d93a8', weight: 1.2 }, map);
  void outlines('states.json', 'states', { color: '#a9bacb', weight: 0.8, dashArray: '3 3' }, map);
}

/**
 * The base map once the data is on screen: in a task of its own after the next frame, so that neither
 * its work (the graticule, the outlines' requests and conversion) nor its raster lengthens the task
 * that draws the data first.
 */
export function addBaseMapAfterFirstDraw(map: L.Map, add: () => void): void {
  let removed = false;
  map.once('unload', () => { removed = true; });
  requestAnimationFrame(() => setTimeout(() => { if (!removed) add(); }, 0));
}
