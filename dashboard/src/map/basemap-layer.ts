// The imported extracts' water, parks, woods, buildings (zoom 15 and in), waterways and names, from
// GET /v1/data/basemap, and each extract's coverage as a dashed box. Drawn by the map's one vector
// renderer (basemap.ts says why) as two layers of our own: the areas, each kind filled as one path (one
// fill call for all of a view's buildings, not one Leaflet layer per building, which Leaflet would
// project one by one at every zoom), at the very back under the roads; and the names above them, placed
// once per move so that none covers another.
import L from 'leaflet';
import type { Api } from '../api';
import { importedExtracts } from './extracts';
import { wallsOf } from './building-walls';

/** Below this the view is wider than what the gateway answers for (4,096 px of the zoom) and worth little. */
export const BASEMAP_MIN_ZOOM = 10;
/** The view asked for, padded so that a short pan needs no new answer. */
const PAD = 0.25;

const AREA_ORDER = ['park', 'wood', 'water', 'building'] as const;
type AreaKind = (typeof AREA_ORDER)[number];
export const AREA_COLOURS: Record<AreaKind, string> = { park: '#cdebb6', wood: '#b9dca0', water: '#9fcfe6', building: '#d6cfc7' };
const WATERWAY_COLOUR = AREA_COLOURS.water;
/** The dashed box around each imported extract. */
export const COVERAGE_COLOUR = '#5b7da0';

const LABEL_PRIORITY = ['city', 'town', 'village', 'suburb', 'water', 'park', 'neighbourhood', 'hamlet', 'road'];
const LABEL_STYLE: Record<string, { font: string; colour: string }> = {
  city: { font: 'bold 15px system-ui, sans-serif', colour: '#22313f' },
  town: { font: 'bold 13px system-ui, sans-serif', colour: '#2c3e50' },
  village: { font: '12px system-ui, sans-serif', colour: '#34495e' },
  suburb: { font: '600 12px system-ui, sans-serif', colour: '#5d6d7e' },
  neighbourhood: { font: '11px system-ui, sans-serif', colour: '#6c7a89' },
  hamlet: { font: '11px system-ui, sans-serif', colour: '#6c7a89' },
  water: { font: 'italic 11px system-ui, sans-serif', colour: '#2e6f95' },
  park: { font: '11px system-ui, sans-serif', colour: '#3c7a2a' },
  road: { font: '10px system-ui, sans-serif', colour: '#555f69' },
};

interface Label {
  name: string;
  kind: string;
  /** Web Mercator pixels at zoom 0. */
  x: number;
  y: number;
  /** Radians clockwise from east: a road's name is written along it. */
  angle: number;
}

interface Areas {
  /** Per kind, each ring or line as [x0, y0, x1, y1, …] in Web Mercator pixels at zoom 0. */
  parts: Record<AreaKind | 'waterway', Float64Array[]>;
  /**
   * The buildings' walls as open lines: their rings without the edges along the cells' lines they were cut
   * on (outlined whole, a building across a cell line showed the seam).
   */
  walls: Float64Array[];
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** Web Mercator pixel at zoom 0, as Leaflet's EPSG:3857 projects (256 px a world). */
function worldX(lng: number): number {
  return ((lng + 180) / 360) * 256;
}
function worldY(lat: number): number {
  const s = Math.sin((Math.max(-85.0511287798, Math.min(85.0511287798, lat)) * Math.PI) / 180);
  return (0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * 256;
}

/** Parts of an answer (first point absolute, then steps, in 1/scale degree) as zoom-0 pixels. */
function decode(answer: Record<string, unknown>): { areas: Areas; labels: Label[] } {
  const scale = Number(answer.scale) || 1e6;
  const areas: Areas = { parts: { park: [], wood: [], water: [], building: [], waterway: [] }, walls: [], minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
  // The cut lines in the answer's integers; without a grid (an older gateway) nothing is taken for a cut.
  const grid = Math.round(Number(answer.buildingGrid) * scale) || 0;
  for (const kind of [...AREA_ORDER, 'waterway'] as const) {
    for (const shape of (answer[kind] ?? []) as number[][][]) {
      for (const part of shape) {
        const out = new Float64Array(part.length);
        const absolute = kind === 'building' ? new Array<number>(part.length) : undefined;
        let lng = 0, lat = 0;
        for (let i = 0; i < part.length; i += 2) {
          lng += part[i];
          lat += part[i + 1];
          if (absolute) {
            absolute[i] = lng;
            absolute[i + 1] = lat;
          }
          const x = worldX(lng / scale), y = worldY(lat / scale);
          out[i] = x;
          out[i + 1] = y;
          if (x < areas.minX) areas.minX = x;
          if (x > areas.maxX) areas.maxX = x;
          if (y < areas.minY) areas.minY = y;
          if (y > areas.maxY) areas.maxY = y;
        }
        areas.parts[kind].push(out);
        if (absolute) areas.walls.push(...wallsOf(out, absolute, grid));
      }
    }
  }
  const labels = ((answer.labels ?? []) as Array<{ name: string; kind: string; coordinates: [number, number]; angle?: number }>)
    .map((l) => ({ name: l.name, kind: l.kind, x: worldX(l.coordinates[0]), y: worldY(l.coordinates[1]), angle: ((l.angle ?? 0) * Math.PI) / 180 }))
    .sort((a, b) => LABEL_PRIORITY.indexOf(a.kind) - LABEL_PRIORITY.indexOf(b.kind));
  return { areas, labels };
}

/* eslint-disable @typescript-eslint/no-explicit-any -- Leaflet's renderer hooks (_project, _updatePath…) are not in its typings. */
type PathLayer = L.Path & { setData(data: unknown): void };

/** The areas: each kind one path, filled non-zero (the import turns outer rings one way and holes the other). */
const AreasLayer = (L.Path as any).extend({
  options: { interactive: false, stroke: false, fill: false },
  initialize(this: any) {
    this._areas = undefined;
  },
  setData(this: any, areas: Areas | undefined) {
    this._areas = areas;
    if (this._map) this.redraw();
  },
  _project(this: any) {
    const map: L.Map = this._map;
    this._scale = 2 ** map.getZoom();
    this._origin = map.getPixelOrigin();
    const a: Areas | undefined = this._areas;
    this._pxBounds = a && a.minX <= a.maxX
      ? L.bounds([a.minX * this._scale - this._origin.x, a.minY * this._scale - this._origin.y], [a.maxX * this._scale - this._origin.x, a.maxY * this._scale - this._origin.y])
      : undefined;
  },
  _update(this: any) {},
  _containsPoint() {
    return false;
  },
  _updatePath(this: any) {
    const renderer = this._renderer;
    const a: Areas | undefined = this._areas;
    if (!renderer._drawing || !a) return;
    const ctx: CanvasRenderingContext2D = renderer._ctx;
    const s: number = this._scale, ox: number = this._origin.x, oy: number = this._origin.y;
    // The renderer leaves the last layer's dashes and opacity set (the state outlines are dashed, the
    // graticule under the areas half transparent).
    ctx.setLineDash([]);
    ctx.globalAlpha = 1;
    const trace = (parts: Float64Array[], closed: boolean): void => {
      ctx.beginPath();
      for (const p of parts) {
        ctx.moveTo(p[0] * s - ox, p[1] * s - oy);
        for (let i = 2; i < p.length; i += 2) ctx.lineTo(p[i] * s - ox, p[i + 1] * s - oy);
        if (closed) ctx.closePath();
      }
    };
    for (const kind of ['park', 'wood', 'water'] as const) {
      if (a.parts[kind].length === 0) continue;
      trace(a.parts[kind], true);
      ctx.fillStyle = AREA_COLOURS[kind];
      ctx.fill();
    }
    if (a.parts.waterway.length > 0) {
      trace(a.parts.waterway, false);
      ctx.strokeStyle = WATERWAY_COLOUR;
      ctx.lineWidth = this._map.getZoom() >= 14 ? 2.5 : 1.5;
      ctx.lineJoin = 'round';
      ctx.stroke();
    }
    if (a.parts.building.length > 0) {
      trace(a.parts.building, true);
      ctx.fillStyle = AREA_COLOURS.building;
      ctx.fill();
      if (this._map.getZoom() >= 16) {
        trace(a.walls, false);
        ctx.strokeStyle = '#c2b8ad';
        ctx.lineWidth = 0.6;
        ctx.stroke();
      }
    }
  },
});

/** The names: placed at each projection and move (priority order, none over another), drawn as placed. */
const LabelsLayer = (L.Path as any).extend({
  options: { interactive: false, stroke: false, fill: false },
  initialize(this: any) {
    this._labels = [];
    this._placed = [];
    this._widths = new Map<string, number>();
  },
  setData(this: any, labels: Label[]) {
    this._labels = labels;
    if (this._map) this.redraw();
  },
  _project(this: any) {
    const map: L.Map = this._map;
    this._scale = 2 ** map.getZoom();
    this._origin = map.getPixelOrigin();
  },
  _update(this: any) {
    const renderer = this._renderer;
    const ctx: CanvasRenderingContext2D | undefined = renderer._ctx;
    const view: L.Bounds | undefined = renderer._bounds;
    this._placed = [];
    if (!ctx || !view) {
      this._pxBounds = undefined;
      return;
    }
    const boxes: number[] = [];
    const shown = new Map<string, Array<[number, number]>>();
    for (const l of this._labels as Label[]) {
      if (this._placed.length >= 150) break;
      const x = l.x * this._scale - this._origin.x, y = l.y * this._scale - this._origin.y;
      if (x < view.min!.x || x > view.max!.x || y < view.min!.y || y > view.max!.y) continue;
      // A road's name is written once per cell: twice within 300 px is once too many.
      const same = shown.get(l.name);
      if (same && same.some(([a, b]) => Math.abs(a - x) < 300 && Math.abs(b - y) < 300)) continue;
      const style = LABEL_STYLE[l.kind] ?? LABEL_STYLE.neighbourhood;
      const key = `${style.font}|${l.name}`;
      let w = this._widths.get(key);
      if (w === undefined) {
        ctx.font = style.font;
        w = ctx.measureText(l.name).width;
        this._widths.set(key, w);
      }
      const h = parseInt(/(\d+)px/.exec(style.font)![1], 10);
      // A turned name takes the box around its turned rectangle.
      const cos = Math.abs(Math.cos(l.angle)), sin = Math.abs(Math.sin(l.angle));
      const hw = w / 2 + 2, hh = h / 2 + 2;
      const ex = cos * hw + sin * hh, ey = sin * hw + cos * hh;
      const x0 = x - ex, y0 = y - ey, x1 = x + ex, y1 = y + ey;
      let free = true;
      for (let k = 0; k < boxes.length && free; k += 4) free = x1 < boxes[k] || x0 > boxes[k + 2] || y1 < boxes[k + 1] || y0 > boxes[k + 3];
      if (!free) continue;
      boxes.push(x0, y0, x1, y1);
      this._placed.push({ text: l.name, x, y, angle: l.angle, style });
      if (same) same.push([x, y]);
      else shown.set(l.name, [[x, y]]);
    }
    this._pxBounds = this._placed.length > 0 ? L.bounds(view.min!, view.max!) : undefined;
  },
  _containsPoint() {
    return false;
  },
  _updatePath(this: any) {
    const renderer = this._renderer;
    if (!renderer._drawing) return;
    const ctx: CanvasRenderingContext2D = renderer._ctx;
    ctx.globalAlpha = 1;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.lineJoin = 'round';
    ctx.lineWidth = 3;
    ctx.strokeStyle = 'rgba(255,255,255,0.9)';
    for (const p of this._placed as Array<{ text: string; x: number; y: number; angle: number; style: { font: string; colour: string } }>) {
      ctx.font = p.style.font;
      ctx.fillStyle = p.style.colour;
      if (p.angle === 0) {
        ctx.strokeText(p.text, p.x, p.y);
        ctx.fillText(p.text, p.x, p.y);
        continue;
      }
      ctx.save();
      ctx.translate(p.x, p.y);
      ctx.rotate(p.angle);
      ctx.strokeText(p.text, 0, 0);
      ctx.fillText(p.text, 0, 0);
      ctx.restore();
    }
  },
});

export interface Basemap {
  /** Puts the areas back under every other base layer (the roads are brought to the back as they come). */
  sendAreasBack(): void;
}

/**
 * Adds the imported extracts' coverage boxes, and their base map from BASEMAP_MIN_ZOOM in, asked again
 * after a move that leaves the asked (padded) box or changes the zoom band. Without an imported extract,
 * nothing. `under` puts what must lie beneath the areas back under them each time they are sent back: the
 * graticule, whose 0.01° lines at street zooms are the very lines buildings are cut on, and which drawn over
 * them crossed every building there.
 */
export async function addBasemap(map: L.Map, api: Api, under: () => void = () => undefined): Promise<Basemap> {
  const areas: PathLayer = new AreasLayer();
  const labels: PathLayer = new LabelsLayer();
  const toBack = (): void => {
    areas.bringToBack();
    under();
  };
  const basemap: Basemap = { sendAreasBack: () => { if (map.hasLayer(areas)) toBack(); } };
  const extracts = await importedExtracts(api);
  if (extracts.length === 0) return basemap;
  for (const e of extracts) {
    const [w, s, east, n] = e.coverage ?? e.bbox;
    L.rectangle([[s, w], [n, east]], { color: COVERAGE_COLOUR, weight: 2, opacity: 1, dashArray: '8 5', fill: false, interactive: false, className: 'extract-coverage' }).addTo(map);
  }
  if (!extracts.some((e) => 'basemap' in (e.stages ?? {}))) return basemap;
  areas.addTo(map);
  toBack();
  labels.addTo(map);
  let generation = 0;
  let asked: { box: L.LatLngBounds; zoom: number; cut: boolean } | undefined;
  const load = async (): Promise<void> => {
    const mine = ++generation;
    const zoom = Math.floor(map.getZoom());
    if (zoom < BASEMAP_MIN_ZOOM) {
      asked = undefined;
      areas.setData(undefined);
      labels.setData([]);
      return;
    }
    const view = map.getBounds();
    if (asked && asked.zoom === zoom && !asked.cut && asked.box.contains(view)) return;
    const b = view.pad(PAD);
    const clamp = (v: number, lim: number): number => Math.max(-lim, Math.min(lim, v));
    const box = [clamp(b.getWest(), 180), clamp(b.getSouth(), 90), clamp(b.getEast(), 180), clamp(b.getNorth(), 90)];
    try {
      const answer = await api.get('/v1/data/basemap', { bbox: box.map((v) => v.toFixed(5)).join(','), zoom });
      if (mine !== generation) return;
      const decoded = decode(answer);
      asked = { box: L.latLngBounds([box[1], box[0]], [box[3], box[2]]), zoom, cut: Boolean(answer.meta?.cut) };
      areas.setData(decoded.areas);
      labels.setData(decoded.labels);
      performance.mark('waymark:basemap-drawn');
    } catch {
      // A failed base-layer fetch leaves the map as it was.
    }
  };
  map.on('moveend', () => void load());
  await load();
  return basemap;
}
