// Users at their last location, clustered (supercluster) so that ten thousand of them stay cheap to draw.
import L from 'leaflet';
import Supercluster from 'supercluster';

export interface UserPoint {
  _id: string;
  userId?: string;
  deviceId?: string;
  description?: string;
  location?: { coordinates: [number, number] };
  updatedAt?: string;
}

export class UserLayer {
  private readonly group = L.layerGroup();
  private readonly renderer = L.canvas({ padding: 0.1 });
  private index = new Supercluster<{ user: UserPoint }>({ radius: 50, maxZoom: 17 });
  private users: UserPoint[] = [];

  constructor(private readonly map: L.Map, private readonly onSelect: (u: UserPoint) => void) {
    this.group.addTo(map);
    map.on('moveend', () => this.draw());
  }

  set(users: UserPoint[]): void {
    this.users = users.filter((u) => u.location?.coordinates);
    this.index = new Supercluster<{ user: UserPoint }>({ radius: 50, maxZoom: 17 });
    this.index.load(this.users.map((user) => ({
      type: 'Feature', properties: { user }, geometry: { type: 'Point', coordinates: user.location!.coordinates },
    })));
    this.draw();
  }

  get count(): number {
    return this.users.length;
  }

  private draw(): void {
    this.group.clearLayers();
    const b = this.map.getBounds();
    const clusters = this.index.getClusters([b.getWest(), b.getSouth(), b.getEast(), b.getNorth()], Math.round(this.map.getZoom()));
    for (const c of clusters) {
      const [lng, lat] = c.geometry.coordinates;
      const props = c.properties as any;
      if (props.cluster) {
        const n: number = props.point_count;
        const size = 24 + Math.min(24, Math.log2(n) * 3);
        const marker = L.marker([lat, lng], {
          icon: L.divIcon({ className: '', html: `<div class="cluster" style="width:${size}px;height:${size}px">${props.point_count_abbreviated}</div>`, iconSize: [size, size] }),
          keyboard: true, title: `${n} users`,
        });
        marker.on('click', () => this.map.setView([lat, lng], Math.min(18, this.index.getClusterExpansionZoom(props.cluster_id))));
        marker.addTo(this.group);
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
