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

/** The graticule's handle: its lines put under every other base layer (areas fill over them). */
export interface Graticule {
  toBack(): void;
}

export function addGraticule(map: L.Map): Graticule {
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
  return { toBack: () => layer.eachLayer((line) => (line as L.Polyline).bringToBack()) };
}

/**
 * Most points in one outline part. Leaflet projects every point of a layer on the map at each zoom's end
 * (Polyline._projectLatlngs): with a whole country as one layer, a city view projected the United
 * States' 5,751 points (and its states') to draw the few dozen in view, 9–24 ms at each zoom's end in a
 * trace of the bench's zoom and pan. Cut into runs of this many, only the runs near the view are on the map.
 */
const PART_POINTS = 64;

type Position = [number, number];

/** The lines of a GeoJSON geometry: polygons' rings, lines, as [lng, lat] lists. */
function linesOf(geometry: { type: string; coordinates: unknown } | null): Position[][] {
  if (!geometry) return [];
  switch (geometry.type) {
    case 'LineString': return [geometry.coordinates as Position[]];
    case 'MultiLineString': case 'Polygon': return geometry.coordinates as Position[][];
    case 'MultiPolygon': return (geometry.coordinates as Position[][][]).flat();
    default: return [];
  }
}

/** A line cut into runs of at most PART_POINTS points, each run starting where the last ended. */
function runsOf(line: Position[]): L.LatLngExpression[][] {
  const runs: L.LatLngExpression[][] = [];
  for (let i = 0; i < line.length - 1; i += PART_POINTS - 1) {
    runs.push(line.slice(i, i + PART_POINTS).map(([lng, lat]) => [lat, lng] as L.LatLngExpression));
  }
  return runs;
}

async function outlines(url: string, object: string, style: L.PathOptions, map: L.Map): Promise<void> {
  const res = await fetch(url);
  if (!res.ok) return;
  const topology = await res.json();
  // Runs of PART_POINTS points, each a layer on the map only while its box meets the view (padded):
  // Leaflet projects every point of every layer on the map at each zoom. Made CHUNK geometries at a
  // time, so that converting them never holds the page for one long task.
  const geometries = topology.objects[object].geometries as unknown[];
  const parts: L.Polyline[] = [];
  for (let i = 0; i < geometries.length; i += CHUNK) {
    for (const g of geometries.slice(i, i + CHUNK)) {
      const one = feature(topology, g as any) as unknown as { geometry: { type: string; coordinates: unknown } | null };
      for (const line of linesOf(one.geometry)) {
        for (const run of runsOf(line)) parts.push(L.polyline(run, { ...style, fill: false, interactive: false }));
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  const boxes = parts.map((p) => p.getBounds());
  let first = true;
  const show = () => {
    const view = map.getBounds().pad(0.5);
    let points = 0;
    let changed = first;
    first = false;
    parts.forEach((p, i) => {
      const wanted = view.intersects(boxes[i]);
      if (wanted && !map.hasLayer(p)) { p.addTo(map).bringToBack(); changed = true; }
      else if (!wanted && map.hasLayer(p)) { p.removeFrom(map); changed = true; }
      if (wanted) points += (p.getLatLngs() as L.LatLng[]).length;
    });
    // What each zoom's end projects from now on: for a trace, and for test/dashboard/outline-parts.test.ts.
    if (changed) performance.mark('waymark:outlines-shown', { detail: { file: url, parts: parts.length, points } });
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
