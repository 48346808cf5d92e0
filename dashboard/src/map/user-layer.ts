// Users at their last location: the points the gateway sent for the view, clustered (supercluster) so
// that thousands stay cheap to draw, or a crowded view's counts per cell.
import L from 'leaflet';
import Supercluster from 'supercluster';
import type { Cell, UserPoint } from './map-data';

export class UserLayer {
  private readonly group = L.layerGroup();
  private readonly renderer = L.canvas({ padding: 0.1 });
  private index = new Supercluster<{ user: UserPoint }>({ radius: 50, maxZoom: 17 });
  private users: UserPoint[] = [];
  private cells: Cell[] = [];
  /** What was drawn last: the 3-second poll answering the same users redraws nothing. */
  private drawnSignature = '';

  constructor(private readonly map: L.Map, private readonly onSelect: (u: UserPoint) => void) {
    this.group.addTo(map);
    // Clusters depend on the zoom and the view; a crowded view's cells do not (Leaflet moves their
    // markers itself), and the view's next answer replaces them anyway.
    map.on('moveend', () => { if (this.users.length > 0) this.draw(); });
  }

  set(users: UserPoint[], cells: Cell[] = []): void {
    const signature = `${cells.length}:${cells.join(';')}|${users.length}:${users.map((u) => `${u._id}@${u.coordinates}`).join(';')}`;
    if (signature === this.drawnSignature) return;
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

  private bubble(lat: number, lng: number, n: number, label: string, onClick: () => void): void {
    const size = 24 + Math.min(24, Math.log2(n) * 3);
    const marker = L.marker([lat, lng], {
      icon: L.divIcon({ className: '', html: `<div class="cluster" style="width:${size}px;height:${size}px">${label}</div>`, iconSize: [size, size] }),
      keyboard: true, title: `${n} ${n === 1 ? 'user' : 'users'}`,
    });
    marker.on('click', onClick);
    marker.addTo(this.group);
  }

  private draw(): void {
    this.group.clearLayers();
    for (const [lng, lat, n] of this.cells) {
      this.bubble(lat, lng, n, n >= 1000 ? `${(n / 1000).toFixed(n >= 10000 ? 0 : 1)}k` : String(n), () => this.map.setView([lat, lng], this.map.getZoom() + 2));
    }
    if (this.users.length === 0) return;
    const b = this.map.getBounds();
    const clusters = this.index.getClusters([b.getWest(), b.getSouth(), b.getEast(), b.getNorth()], Math.round(this.map.getZoom()));
    for (const c of clusters) {
      const [lng, lat] = c.geometry.coordinates;
      const props = c.properties as any;
      if (props.cluster) {
        this.bubble(lat, lng, props.point_count, props.point_count_abbreviated, () => this.map.setView([lat, lng], Math.min(18, this.index.getClusterExpansionZoom(props.cluster_id))));
      } else {
        const user: UserPoint = props.user;
        const dot = L.circleMarker([lat, lng], { renderer: this.renderer, radius: 6, color: '#fff', weight: 2, fillColor: '#2e7d32', fillOpacity: 1 });
        dot.bindTooltip(user.userId ?? user.deviceId ?? user._id);
        dot.on('click', () => this.onSelect(user));
        dot.addTo(this.group);
      }
    }
  }
}
