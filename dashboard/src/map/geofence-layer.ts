// Geofences drawn as their shapes on one canvas of our own, only those in view. With tens of thousands
// in an environment, one Leaflet object per geofence froze the page for a second on every zoom; here a
// redraw is one pass over typed arrays of centres, projecting only what is in view, and a click is a
// hit test over what was drawn. Far out, where shapes would be specks, each geofence is a dot.
import L from 'leaflet';

export interface GeofenceShape {
  _id: string;
  tag?: string;
  externalId?: string;
  description: string;
  type: 'circle' | 'polygon' | 'isochrone';
  enabled?: boolean;
  geometryCenter: { coordinates: [number, number] };
  geometryRadius?: number;
  geometry?: { type: string; coordinates: number[][][] };
  createdAt: string;
}

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
  private geofences: GeofenceShape[] = [];
  private lat = new Float64Array(0);
  private lng = new Float64Array(0);
  private selected?: string;
  private drawn: Drawn[] = [];
  private readonly canvas: HTMLCanvasElement;

  constructor(private readonly map: L.Map, private readonly onSelect: (g: GeofenceShape) => void) {
    const pane = map.createPane('geofences');
    pane.style.zIndex = '410';
    pane.style.pointerEvents = 'none';
    this.canvas = L.DomUtil.create('canvas', 'geofence-canvas', pane) as HTMLCanvasElement;
    this.canvas.setAttribute('aria-hidden', 'true');
    map.on('moveend resize', () => this.draw());
    // The canvas is drawn for one zoom: hide it while Leaflet animates to the next.
    map.on('zoomstart', () => { this.canvas.style.visibility = 'hidden'; });
    map.on('click', (e: L.LeafletMouseEvent) => this.hit(e.containerPoint));
  }

  set(geofences: GeofenceShape[]): void {
    this.geofences = geofences;
    this.lat = Float64Array.from(geofences, (g) => g.geometryCenter.coordinates[1]);
    this.lng = Float64Array.from(geofences, (g) => g.geometryCenter.coordinates[0]);
    this.draw();
  }

  add(geofences: GeofenceShape[]): void {
    this.set([...this.geofences, ...geofences]);
  }

  select(id: string | undefined): void {
    this.selected = id;
    this.draw();
  }

  /** Bounds of every geofence, to frame the map on first load. */
  bounds(): L.LatLngBounds | undefined {
    if (this.geofences.length === 0) return undefined;
    let s = 90, w = 180, n = -90, e = -180;
    for (let i = 0; i < this.lat.length; i++) {
      s = Math.min(s, this.lat[i]); n = Math.max(n, this.lat[i]);
      w = Math.min(w, this.lng[i]); e = Math.max(e, this.lng[i]);
    }
    return L.latLngBounds([s, w], [n, e]);
  }

  get count(): number {
    return this.geofences.length;
  }

  private draw(): void {
    const map = this.map;
    const size = map.getSize();
    const ratio = window.devicePixelRatio || 1;
    this.canvas.width = size.x * ratio;
    this.canvas.height = size.y * ratio;
    this.canvas.style.width = `${size.x}px`;
    this.canvas.style.height = `${size.y}px`;
    L.DomUtil.setPosition(this.canvas, map.containerPointToLayerPoint([0, 0]));
    this.canvas.style.visibility = '';
    const ctx = this.canvas.getContext('2d');
    if (!ctx) return;
    ctx.scale(ratio, ratio);
    this.drawn = [];
    const view = map.getBounds().pad(0.05);
    const south = view.getSouth(), north = view.getNorth(), west = view.getWest(), east = view.getEast();
    const metresPerPixelAtEquator = EARTH_CIRCUMFERENCE_M / (256 * 2 ** map.getZoom());
    let selectedDrawn: Drawn | undefined;
    for (let i = 0; i < this.lat.length; i++) {
      const lat = this.lat[i], lng = this.lng[i];
      if (lat < south || lat > north || lng < west || lng > east) continue;
      const g = this.geofences[i];
      const p = map.latLngToContainerPoint([lat, lng]);
      const mpp = metresPerPixelAtEquator * Math.cos((lat * Math.PI) / 180);
      const d: Drawn = { index: i, x: p.x, y: p.y, r: 3 };
      if (g.type === 'circle' && g.geometryRadius) {
        d.r = Math.max(3, g.geometryRadius / mpp);
      } else if (g.geometry?.coordinates?.[0]) {
        const ring = g.geometry.coordinates[0];
        // A polygon smaller than a few pixels is a dot; projecting its corners would be wasted work.
        const spanDeg = Math.abs(ring[0][1] - lat) + Math.abs(ring[0][0] - lng);
        if ((spanDeg * 111320) / mpp >= MIN_SHAPE_PX) {
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
    if (selectedDrawn) this.paint(ctx, selectedDrawn, this.geofences[selectedDrawn.index], true);
  }

  private paint(ctx: CanvasRenderingContext2D, d: Drawn, g: GeofenceShape, chosen: boolean): void {
    const disabled = g.enabled === false;
    ctx.strokeStyle = chosen ? '#d35400' : disabled ? '#8795a1' : '#1f6feb';
    ctx.fillStyle = chosen ? 'rgba(211, 84, 0, 0.2)' : disabled ? 'rgba(135, 149, 161, 0.12)' : 'rgba(31, 111, 235, 0.15)';
    ctx.lineWidth = chosen ? 3 : 1.5;
    ctx.setLineDash(disabled ? [4, 4] : []);
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

  /** The smallest drawn shape under the click: nested geofences select the inner one. */
  private hit(point: L.Point): void {
    let best: Drawn | undefined;
    let bestArea = Infinity;
    for (const d of this.drawn) {
      const inside = d.ring ? pointInRing(point.x, point.y, d.ring) : (point.x - d.x) ** 2 + (point.y - d.y) ** 2 <= Math.max(d.r, 6) ** 2;
      if (!inside) continue;
      const area = d.ring ? ringArea(d.ring) : Math.PI * d.r * d.r;
      if (area < bestArea) { best = d; bestArea = area; }
    }
    if (best) this.onSelect(this.geofences[best.index]);
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
