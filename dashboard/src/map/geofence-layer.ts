// Geofences drawn as their shapes on one canvas, only those in view: with tens of thousands in an
// environment, drawing all of them would freeze the page. Far out, where shapes would be specks, each
// geofence is a dot at its centre instead.
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

/** More shapes than this in view and the layer draws centres only. */
const MAX_SHAPES_IN_VIEW = 3000;

export class GeofenceLayer {
  private readonly renderer = L.canvas({ padding: 0.1 });
  private readonly group = L.layerGroup();
  private geofences: GeofenceShape[] = [];
  private selected?: string;

  constructor(private readonly map: L.Map, private readonly onSelect: (g: GeofenceShape) => void) {
    this.group.addTo(map);
    map.on('moveend', () => this.draw());
  }

  set(geofences: GeofenceShape[]): void {
    this.geofences = geofences;
    this.draw();
  }

  add(geofences: GeofenceShape[]): void {
    this.geofences.push(...geofences);
    this.draw();
  }

  select(id: string | undefined): void {
    this.selected = id;
    this.draw();
  }

  /** Bounds of every geofence, to frame the map on first load. */
  bounds(): L.LatLngBounds | undefined {
    if (this.geofences.length === 0) return undefined;
    const b = L.latLngBounds([]);
    for (const g of this.geofences) b.extend([g.geometryCenter.coordinates[1], g.geometryCenter.coordinates[0]]);
    return b;
  }

  get count(): number {
    return this.geofences.length;
  }

  private draw(): void {
    this.group.clearLayers();
    const view = this.map.getBounds().pad(0.1);
    const inView = this.geofences.filter((g) => view.contains([g.geometryCenter.coordinates[1], g.geometryCenter.coordinates[0]]));
    const dotsOnly = inView.length > MAX_SHAPES_IN_VIEW;
    for (const g of inView) {
      const [lng, lat] = g.geometryCenter.coordinates;
      const chosen = g._id === this.selected;
      const style: L.PathOptions = {
        renderer: this.renderer,
        color: chosen ? '#d35400' : g.enabled === false ? '#8795a1' : '#1f6feb',
        weight: chosen ? 3 : 1.5,
        fillOpacity: 0.15,
        dashArray: g.enabled === false ? '4 4' : undefined,
      };
      let shape: L.Path;
      if (dotsOnly) shape = L.circleMarker([lat, lng], { ...style, radius: 3, fillOpacity: 0.8 });
      else if (g.type === 'circle' && g.geometryRadius) shape = L.circle([lat, lng], { ...style, radius: g.geometryRadius });
      else if (g.geometry?.coordinates?.[0]) shape = L.polygon(g.geometry.coordinates[0].map(([x, y]) => [y, x] as [number, number]), style);
      else shape = L.circleMarker([lat, lng], { ...style, radius: 4 });
      shape.bindTooltip(g.description || `${g.tag ?? ''}/${g.externalId ?? ''}`);
      shape.on('click', () => this.onSelect(g));
      shape.addTo(this.group);
    }
  }
}
