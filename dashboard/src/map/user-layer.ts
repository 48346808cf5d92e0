// Users at their last location: the points the gateway sent for the view, clustered (supercluster) so
// that thousands stay cheap to draw, or a crowded view's counts per cell. Painted on one canvas (a DOM
// marker per cell or cluster, up to a thousand of them, was re-created on every answer and moved one by
// one through each zoom animation: the longest frames of a zoom); a click is a hit test over what was
// painted, and the list in the map's corner offers the same to the keyboard.
import L from 'leaflet';
import Supercluster from 'supercluster';
import { CanvasPane, shortCount, warmCanvasFont } from './canvas-pane';
import { bubblesOf } from './cell-bubbles';
import type { Cell, UserPoint } from './map-data';
import { ViewList, type ListEntry } from './view-list';
import { thousands } from '../words';

/** The counts' font: warm() resolves it before the first draw. */
const BUBBLE_FONT = '600 12px system-ui, sans-serif';

/** A single user's dot, CSS pixels; a click this close to its centre selects it. */
const DOT_RADIUS = 6;
const HIT_SLOP = 3;

interface Painted {
  x: number;
  y: number;
  r: number;
  /** A user, or a bubble of `count` users (a crowded view's cell or a cluster). */
  user?: UserPoint;
  count: number;
  activate: () => void;
}

export class UserLayer {
  private readonly pane: CanvasPane;
  private readonly list: ViewList;
  private index = new Supercluster<{ user: UserPoint }>({ radius: 50, maxZoom: 17 });
  private users: UserPoint[] = [];
  private cells: Cell[] = [];
  private painted: Painted[] = [];
  private hovered?: L.Tooltip;
  /** What was drawn last: the 3-second poll answering the same users redraws nothing. */
  private drawnSignature = '';

  /** The owner calls set() with the view's users after every move (GeofenceLayer's `followsView`). */
  constructor(private readonly map: L.Map, private readonly onSelect: (u: UserPoint) => void) {
    this.pane = new CanvasPane(map, 'users', 420, 'user-canvas');
    this.list = new ViewList(map, 'Users in view', 'user-list');
    map.on('resize', () => this.draw());
    map.on('mousemove', (e: L.LeafletMouseEvent) => this.hover(e.containerPoint));
  }

  /** Its label font resolved before the first answer comes (warmCanvasFont). */
  warm(): void {
    warmCanvasFont(BUBBLE_FONT);
  }

  /** Draws what it holds for the current view (the owner's answer for a move did not come). */
  redraw(): void {
    this.draw();
  }

  set(users: UserPoint[], cells: Cell[] = []): void {
    const signature = `${cells.length}:${cells.join(';')}|${users.length}:${users.map((u) => `${u._id}@${u.coordinates}`).join(';')}`;
    if (signature === this.drawnSignature && this.pane.current()) return;
    this.drawnSignature = signature;
    this.users = users;
    this.cells = cells;
    this.index = new Supercluster<{ user: UserPoint }>({ radius: 50, maxZoom: 17 });
    this.index.load(users.map((user) => ({ type: 'Feature', properties: { user }, geometry: { type: 'Point', coordinates: user.coordinates } })));
    this.draw();
  }

  get count(): number {
    return this.users.length;
  }

  /** Selects what was painted under a click; false when nothing was (the geofences' turn). */
  hit(point: L.Point): boolean {
    const found = this.at(point, true);
    found?.painted.activate();
    return found !== undefined;
  }

  /**
   * What was painted under a pointer (container pixels), and where it is now on the screen. What was
   * drawn moved with the map since; scaled by a zoom, a click has it drawn anew, a hover finds nothing.
   */
  private at(pointer: L.Point, drawIfScaled: boolean): { painted: Painted; at: L.Point } | undefined {
    let shift = this.pane.shift();
    if (!shift) {
      if (!drawIfScaled) return undefined;
      this.draw();
      shift = L.point(0, 0);
    }
    const point = pointer.subtract(shift);
    // The last painted is on top.
    for (let i = this.painted.length - 1; i >= 0; i--) {
      const p = this.painted[i];
      if ((point.x - p.x) ** 2 + (point.y - p.y) ** 2 <= (p.r + HIT_SLOP) ** 2) return { painted: p, at: L.point(p.x, p.y).add(shift) };
    }
    return undefined;
  }

  private hover(point: L.Point): void {
    const hit = this.at(point, false);
    this.map.getContainer().style.cursor = hit ? 'pointer' : '';
    if (!hit) { this.hovered?.remove(); this.hovered = undefined; return; }
    const found = hit.painted;
    const text = found.user ? found.user.userId ?? found.user.deviceId ?? found.user._id : `${thousands(found.count)} users`;
    const at = this.map.containerPointToLatLng(hit.at);
    if (!this.hovered) this.hovered = L.tooltip({ direction: 'top', offset: [0, -found.r] });
    this.hovered.setLatLng(at).setContent(text);
    if (!this.map.hasLayer(this.hovered)) this.hovered.addTo(this.map);
  }

  private draw(): void {
    const ctx = this.pane.begin();
    if (!ctx) return;
    this.hovered?.remove();
    this.hovered = undefined;
    const painted: Painted[] = [];
    const bubble = (lng: number, lat: number, n: number, zoomTo: () => void) => {
      const p = this.map.latLngToContainerPoint([lat, lng]);
      painted.push({ x: p.x, y: p.y, r: (24 + Math.min(24, Math.log2(n) * 3)) / 2, count: n, activate: zoomTo });
    };
    // A crowded view's counts, summed into bubbles that do not cover each other (cell-bubbles.ts).
    for (const [lng, lat, n] of bubblesOf(this.cells, (x, y) => this.map.latLngToContainerPoint([y, x]))) {
      bubble(lng, lat, n, () => this.map.setView([lat, lng], this.map.getZoom() + 2));
    }
    if (this.users.length > 0) {
      const b = this.map.getBounds();
      const clusters = this.index.getClusters([b.getWest(), b.getSouth(), b.getEast(), b.getNorth()], Math.round(this.map.getZoom()));
      for (const c of clusters) {
        const [lng, lat] = c.geometry.coordinates;
        const props = c.properties as any;
        if (props.cluster) {
          bubble(lng, lat, props.point_count, () => this.map.setView([lat, lng], Math.min(18, this.index.getClusterExpansionZoom(props.cluster_id))));
        } else {
          const user: UserPoint = props.user;
          const p = this.map.latLngToContainerPoint([lat, lng]);
          painted.push({ x: p.x, y: p.y, r: DOT_RADIUS, user, count: 1, activate: () => this.onSelect(user) });
        }
      }
    }
    this.painted = painted;
    paint(ctx, painted);
    this.list.set(painted.map((p): ListEntry => p.user
      ? { label: p.user.userId ?? p.user.deviceId ?? p.user._id, activate: p.activate }
      // The title is "N users": what the map-user-counts test adds up.
      : { label: `${shortCount(p.count)} users, zoom in`, title: `${p.count} ${p.count === 1 ? 'user' : 'users'}`, activate: p.activate }));
  }
}

function paint(ctx: CanvasRenderingContext2D, painted: Painted[]): void {
  // Style set once per kind: setting a canvas font or colour per item is most of a bubble's cost.
  ctx.lineWidth = 2;
  ctx.strokeStyle = '#fff';
  ctx.fillStyle = '#2e7d32';
  for (const p of painted) {
    if (!p.user) continue;
    ctx.beginPath();
    ctx.arc(p.x, p.y, p.r, 0, Math.PI * 2);
    ctx.fill();
    ctx.stroke();
  }
  ctx.font = BUBBLE_FONT;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  for (const p of painted) {
    if (p.user) continue;
    ctx.beginPath();
    ctx.arc(p.x, p.y, p.r, 0, Math.PI * 2);
    ctx.fillStyle = 'rgba(31, 111, 235, 0.85)';
    ctx.fill();
    ctx.stroke();
    ctx.fillStyle = '#fff';
    ctx.fillText(shortCount(p.count), p.x, p.y);
  }
}
