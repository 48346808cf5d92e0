// Drawing a new geofence on the map: a circle (click the centre, click again at the edge) or a polygon
// (click each corner, click the first corner or double-click to close). Escape cancels. The geofence
// form offers the same as typed coordinates, for keyboard users.
import L from 'leaflet';

export type DrawnShape =
  | { type: 'circle'; center: [number, number]; radius: number }
  | { type: 'polygon'; ring: Array<[number, number]> };

/** Radar's circle radius bounds, so a drawn circle is always one the API accepts. */
const MIN_RADIUS = 10;
const MAX_RADIUS = 10000;
const CLOSE_PIXELS = 12;

export class DrawTool {
  private preview = L.layerGroup();
  /** The finished shape, kept on the map while its form is filled in, until saved or abandoned. */
  private pending = L.layerGroup();
  private cleanup: Array<() => void> = [];
  private readonly svg = L.svg();

  constructor(private readonly map: L.Map) {
    this.preview.addTo(map);
    this.pending.addTo(map);
  }

  /** Shows `shape` as the one being created; clearPending() removes it. */
  showPending(shape: DrawnShape): void {
    this.pending.clearLayers();
    // SVG, not the map's canvas: one shape, and an element a test or a screen reader can find.
    const style = { color: '#d35400', weight: 3, fillOpacity: 0.2, interactive: false, className: 'pending-shape', renderer: this.svg };
    if (shape.type === 'circle') L.circle([shape.center[1], shape.center[0]], { ...style, radius: shape.radius }).addTo(this.pending);
    else L.polygon(shape.ring.map(([x, y]) => [y, x] as [number, number]), style).addTo(this.pending);
  }

  clearPending(): void {
    this.pending.clearLayers();
  }

  /** While drawing, clicks belong to the drawing, not to selecting what is under them. */
  get active(): boolean {
    return this.cleanup.length > 0;
  }

  cancel(): void {
    for (const undo of this.cleanup.splice(0)) undo();
    this.preview.clearLayers();
    this.map.getContainer().style.cursor = '';
    this.map.doubleClickZoom.enable();
  }

  private listen(event: string, fn: (e: any) => void): void {
    this.map.on(event, fn);
    this.cleanup.push(() => this.map.off(event, fn));
  }

  private start(done: (shape: DrawnShape) => void): (shape: DrawnShape) => void {
    this.cancel();
    this.map.getContainer().style.cursor = 'crosshair';
    this.map.doubleClickZoom.disable();
    const onKey = (e: KeyboardEvent) => { if (e.key === 'Escape') this.cancel(); };
    document.addEventListener('keydown', onKey);
    this.cleanup.push(() => document.removeEventListener('keydown', onKey));
    this.clearPending();
    return (shape) => { this.cancel(); this.showPending(shape); done(shape); };
  }

  circle(done: (shape: DrawnShape) => void): void {
    const finish = this.start(done);
    let center: L.LatLng | undefined;
    let circle: L.Circle | undefined;
    const radiusTo = (p: L.LatLng) => Math.round(Math.min(MAX_RADIUS, Math.max(MIN_RADIUS, center!.distanceTo(p))));
    this.listen('click', (e: L.LeafletMouseEvent) => {
      if (!center) {
        center = e.latlng;
        circle = L.circle(center, { radius: MIN_RADIUS, color: '#d35400', dashArray: '4 4' }).addTo(this.preview);
        return;
      }
      finish({ type: 'circle', center: [center.lng, center.lat], radius: radiusTo(e.latlng) });
    });
    this.listen('mousemove', (e: L.LeafletMouseEvent) => { if (center && circle) circle.setRadius(radiusTo(e.latlng)); });
  }

  polygon(done: (shape: DrawnShape) => void): void {
    const finish = this.start(done);
    const corners: L.LatLng[] = [];
    const line = L.polyline([], { color: '#d35400', dashArray: '4 4' }).addTo(this.preview);
    const close = () => {
      if (corners.length < 3) return;
      finish({ type: 'polygon', ring: [...corners, corners[0]].map((c) => [c.lng, c.lat] as [number, number]) });
    };
    this.listen('click', (e: L.LeafletMouseEvent) => {
      if (corners.length >= 3) {
        const first = this.map.latLngToContainerPoint(corners[0]);
        if (first.distanceTo(this.map.latLngToContainerPoint(e.latlng)) <= CLOSE_PIXELS) return close();
      }
      corners.push(e.latlng);
      L.circleMarker(e.latlng, { radius: 4, color: '#d35400' }).addTo(this.preview);
      line.setLatLngs(corners);
    });
    this.listen('dblclick', () => close());
    this.listen('mousemove', (e: L.LeafletMouseEvent) => { if (corners.length) line.setLatLngs([...corners, e.latlng]); });
  }
}
