// Geofences drawn on one canvas of the dashboard's own: the shapes the gateway sent for the view
// (GET /v1/data/map), or, in a view holding more than it sends one by one, a count per grid cell.
// One Leaflet object per geofence froze the page on every zoom with tens of thousands; here a redraw is
// one pass over what the view holds, and a click is a hit test over what was drawn. A shape is drawn when
// its box meets the view, so standing inside a big isochrone at street zoom still shows it.
import L from 'leaflet';
import { CanvasPane, shortCount, warmCanvasFont } from './canvas-pane';
import { bubblesOf } from './cell-bubbles';
import type { Cell, GeofenceSketch } from './map-data';
import { ViewList } from './view-list';

/** The counts' font: warm() resolves it before the first draw. */
const CELL_FONT = '600 11px system-ui, sans-serif';

/** Below this many pixels across, a shape is drawn as a dot. */
const MIN_SHAPE_PX = 4;
const EARTH_CIRCUMFERENCE_M = 40075016.686;

interface Drawn {
  index: number;
  x: number;
  y: number;
  /** Pixel radius for circles and dots; polygons keep their projected ring. */
  r: number;
  ring?: Array<[number, number]>;
}

export class GeofenceLayer {
  private shapes: GeofenceSketch[] = [];
  private cells: Cell[] = [];
  /** The cells as last drawn: summed into bubbles that do not cover each other (cell-bubbles.ts). */
  private bubbles: Cell[] = [];
  private selected?: string;
  private drawn: Drawn[] = [];
  private readonly pane: CanvasPane;
  /** The keyboard's way to what is drawn (the map view's; a geofence's own page has none). */
  private readonly list?: ViewList;
  /** The dash the canvas holds now: set only when it changes (setLineDash per shape showed in profiles). */
  private dashed: boolean | undefined;

  /**
   * `onCell` given: a crowded cell zooms in, and the shapes and cells are listed for the keyboard.
   * Clicks reach hit(): the map view asks the users first. `followsView`: the owner calls set() with the
   * new view's shapes after every move (or redraw() when it cannot), so a move's end draws nothing: the
   * canvas is carried or scaled with the map until then.
   */
  constructor(private readonly map: L.Map, private readonly onSelect: (g: GeofenceSketch) => void, private readonly onCell?: (c: Cell) => void, followsView = false) {
    this.pane = new CanvasPane(map, 'geofences', 410, 'geofence-canvas');
    if (onCell) this.list = new ViewList(map, 'Geofences in view', 'geofence-list');
    map.on('resize', () => this.draw());
    if (!followsView) map.on('moveend', () => this.draw());
  }

  /** Its label font resolved before the first answer comes (warmCanvasFont). */
  warm(): void {
    warmCanvasFont(CELL_FONT);
  }

  /** Draws what it holds for the current view (the owner's answer for a move did not come). */
  redraw(): void {
    this.draw();
  }

  set(shapes: GeofenceSketch[], cells: Cell[] = []): void {
    this.shapes = shapes;
    this.cells = cells;
    this.draw();
  }

  /** A geofence just saved: shown at once, before the next view answer includes it. */
  upsert(g: GeofenceSketch): void {
    this.shapes = [...this.shapes.filter((s) => s._id !== g._id), g];
    this.draw();
  }

  select(id: string | undefined): void {
    this.selected = id;
    this.draw();
  }

  get count(): number {
    return this.shapes.length;
  }

  private draw(): void {
    const map = this.map;
    const ctx = this.pane.begin();
    if (!ctx) return;
    this.dashed = undefined;
    this.drawn = [];
    const view = map.getBounds().pad(0.05);
    const south = view.getSouth(), north = view.getNorth(), west = view.getWest(), east = view.getEast();
    const metresPerPixelAtEquator = EARTH_CIRCUMFERENCE_M / (256 * 2 ** map.getZoom());
    let selectedDrawn: Drawn | undefined;
    for (let i = 0; i < this.shapes.length; i++) {
      const g = this.shapes[i];
      const [bw, bs, be, bn] = g.bbox;
      if (bn < south || bs > north || be < west || bw > east) continue;
      const [lng, lat] = g.center;
      const p = map.latLngToContainerPoint([lat, lng]);
      const mpp = metresPerPixelAtEquator * Math.cos((lat * Math.PI) / 180);
      const d: Drawn = { index: i, x: p.x, y: p.y, r: 3 };
      if (g.type === 'circle' && g.radius) {
        d.r = Math.max(3, g.radius / mpp);
      } else {
        const spanPx = (Math.max(be - bw, bn - bs) * 111320) / mpp;
        if (spanPx >= MIN_SHAPE_PX) {
          const ring = g.ring ?? [[bw, bs], [be, bs], [be, bn], [bw, bn], [bw, bs]];
          d.ring = ring.map(([x, y]) => {
            const q = map.latLngToContainerPoint([y, x]);
            return [q.x, q.y] as [number, number];
          });
        }
      }
      this.drawn.push(d);
      if (g._id === this.selected) selectedDrawn = d;
      else this.paint(ctx, d, g, false);
    }
    if (selectedDrawn) this.paint(ctx, selectedDrawn, this.shapes[selectedDrawn.index], true);
    this.bubbles = bubblesOf(this.cells, (lng, lat) => map.latLngToContainerPoint([lat, lng]));
    if (this.bubbles.length) {
      // Set once for every bubble: setting a canvas font or dash per bubble is most of their cost.
      ctx.setLineDash([]);
      this.dashed = false;
      ctx.font = CELL_FONT;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.lineWidth = 1.5;
      ctx.strokeStyle = '#fff';
      for (const [lng, lat, n] of this.bubbles) this.paintCell(ctx, map.latLngToContainerPoint([lat, lng]), n);
    }
    this.list?.set([
      ...this.drawn.map((d) => {
        const g = this.shapes[d.index];
        return { label: g.description || g.externalId || g._id, activate: () => this.onSelect(g) };
      }),
      ...this.bubbles.map((c) => ({ label: `${shortCount(c[2])} geofences, zoom in`, title: `${c[2]} ${c[2] === 1 ? 'geofence' : 'geofences'}`, activate: () => this.onCell?.(c) })),
    ]);
  }

  private paint(ctx: CanvasRenderingContext2D, d: Drawn, g: GeofenceSketch, chosen: boolean): void {
    const disabled = g.enabled === false;
    ctx.strokeStyle = chosen ? '#d35400' : disabled ? '#8795a1' : '#1f6feb';
    ctx.fillStyle = chosen ? 'rgba(211, 84, 0, 0.2)' : disabled ? 'rgba(135, 149, 161, 0.12)' : 'rgba(31, 111, 235, 0.15)';
    ctx.lineWidth = chosen ? 3 : 1.5;
    if (this.dashed !== disabled) { ctx.setLineDash(disabled ? [4, 4] : []); this.dashed = disabled; }
    ctx.beginPath();
    if (d.ring) {
      ctx.moveTo(d.ring[0][0], d.ring[0][1]);
      for (const [x, y] of d.ring) ctx.lineTo(x, y);
      ctx.closePath();
    } else {
      ctx.arc(d.x, d.y, d.r, 0, Math.PI * 2);
    }
    ctx.fill();
    if (d.r >= MIN_SHAPE_PX || d.ring) ctx.stroke();
  }

  /** A crowded cell: a bubble sized by its count, the count written in it. */
  private paintCell(ctx: CanvasRenderingContext2D, p: L.Point, n: number): void {
    const r = 9 + Math.min(16, Math.log2(n + 1) * 2);
    ctx.beginPath();
    ctx.arc(p.x, p.y, r, 0, Math.PI * 2);
    ctx.fillStyle = 'rgba(31, 111, 235, 0.55)';
    ctx.fill();
    ctx.stroke();
    ctx.fillStyle = '#fff';
    ctx.fillText(shortCount(n), p.x, p.y);
  }

  /** Selects the smallest drawn shape under a click (nested geofences: the inner one); false for none. */
  hit(clicked: L.Point): boolean {
    // What was drawn is where it was drawn, moved with the map since; scaled by a zoom, it is drawn anew.
    let shift = this.pane.shift();
    if (!shift) { this.draw(); shift = L.point(0, 0); }
    const point = clicked.subtract(shift);
    let best: Drawn | undefined;
    let bestArea = Infinity;
    for (const d of this.drawn) {
      const inside = d.ring ? pointInRing(point.x, point.y, d.ring) : (point.x - d.x) ** 2 + (point.y - d.y) ** 2 <= Math.max(d.r, 6) ** 2;
      if (!inside) continue;
      const area = d.ring ? ringArea(d.ring) : Math.PI * d.r * d.r;
      if (area < bestArea) { best = d; bestArea = area; }
    }
    if (best) { this.onSelect(this.shapes[best.index]); return true; }
    for (const c of this.bubbles) {
      const p = this.map.latLngToContainerPoint([c[1], c[0]]);
      if (p.distanceTo(clicked) <= 20) { this.onCell?.(c); return true; }
    }
    return false;
  }
}

function pointInRing(x: number, y: number, ring: Array<[number, number]>): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i];
    const [xj, yj] = ring[j];
    if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function ringArea(ring: Array<[number, number]>): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) sum += ring[j][0] * ring[i][1] - ring[i][0] * ring[j][1];
  return Math.abs(sum / 2);
}
