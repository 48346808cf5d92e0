// Editing a geofence's shape on the map: a circle by its centre and edge handles, a polygon by a handle
// per corner and one in its middle that moves it whole, an isochrone by its centre (the server recomputes
// the area on save). Each drag writes the form's coordinate fields, so Save sends what the map shows, and
// typing in the fields moves the handles. moveTo (the address search) moves the shape as a middle drag would.
import L from 'leaflet';

const MIN_RADIUS = 10;
const MAX_RADIUS = 10000;

function handle(at: L.LatLngExpression, title: string): L.Marker {
  return L.marker(at, {
    draggable: true, keyboard: true, title, alt: title,
    icon: L.divIcon({ className: 'shape-handle', iconSize: [14, 14] }),
  });
}

export interface ShapeEditor {
  /** Moves the shape so its middle (a circle's or isochrone's centre) is at `to`, keeping its size. */
  moveTo(to: L.LatLng): void;
}

const round6 = (v: number) => Number(v.toFixed(6));

/** Binds handles on `map` to the inputs of `form` (named latitude, longitude, radius, coordinates). */
export function editShapeOnMap(map: L.Map, form: HTMLElement, type: 'circle' | 'polygon' | 'isochrone'): ShapeEditor {
  const input = (name: string) => form.querySelector(`[name="${name}"]`) as HTMLInputElement | HTMLTextAreaElement | null;
  const layer = L.layerGroup().addTo(map);
  const svg = L.svg();
  const style = { color: '#d35400', weight: 2, dashArray: '5 4', fillOpacity: 0.08, renderer: svg, interactive: false };
  const changed = (el: HTMLInputElement | HTMLTextAreaElement | null, value: string) => {
    if (!el) return;
    el.value = value;
    el.dispatchEvent(new Event('input', { bubbles: true }));
  };

  if (type === 'polygon') {
    const field = input('coordinates');
    let ring = JSON.parse(field?.value || '[]') as Array<[number, number]>;
    if (ring.length < 4) return { moveTo: () => undefined };
    const corners = () => ring.slice(0, -1).map(([x, y]) => L.latLng(y, x));
    /** The middle handle sits at the mean of the corners (inside any convex ring, near the middle of most). */
    const middleOf = () => {
      const cs = corners();
      return L.latLng(cs.reduce((a, c) => a + c.lat, 0) / cs.length, cs.reduce((a, c) => a + c.lng, 0) / cs.length);
    };
    const outline = L.polygon(corners(), style).addTo(layer);
    const cornerHandles = corners().map((c, i) => {
      const h = handle(c, `Corner ${i + 1}: drag to move`).addTo(layer);
      h.on('drag', () => {
        const p = h.getLatLng();
        ring = ring.map((c, j) => (j === i || (i === 0 && j === ring.length - 1) ? [round6(p.lng), round6(p.lat)] : c));
        outline.setLatLngs(corners());
        middle.setLatLng(middleOf());
        changed(field, JSON.stringify(ring));
      });
      return h;
    });
    const middle = handle(middleOf(), 'Whole shape: drag to move the polygon').addTo(layer);
    // A whole move shifts every corner by the same degrees, from the ring as it was when the drag began,
    // so rounding does not accumulate over the drag's many small steps.
    let from = ring;
    let start = middle.getLatLng();
    const shiftTo = (to: L.LatLng) => {
      const dLng = to.lng - start.lng, dLat = to.lat - start.lat;
      ring = from.map(([x, y]) => [round6(x + dLng), round6(y + dLat)]);
      outline.setLatLngs(corners());
      corners().forEach((c, i) => cornerHandles[i].setLatLng(c));
      changed(field, JSON.stringify(ring));
    };
    middle.on('dragstart', () => { from = ring; start = middleOf(); });
    middle.on('drag', () => shiftTo(middle.getLatLng()));
    return {
      moveTo(to) {
        from = ring; start = middleOf();
        shiftTo(to);
        middle.setLatLng(middleOf());
      },
    };
  }

  const lat = input('latitude'), lng = input('longitude'), radius = input('radius');
  let centre = L.latLng(Number(lat?.value), Number(lng?.value));
  const r = () => Number(radius?.value) || MIN_RADIUS;
  const circle = type === 'circle' ? L.circle(centre, { ...style, radius: r() }).addTo(layer) : undefined;
  /** The edge handle sits due east of the centre, at the radius. */
  const edgeOf = () => {
    const east = map.unproject(map.project(centre).add([1, 0]));
    const metresPerPx = centre.distanceTo(east) || 1;
    return map.unproject(map.project(centre).add([r() / metresPerPx, 0]));
  };
  const middle = handle(centre, type === 'circle' ? 'Centre: drag to move the circle' : 'Centre: drag to move; the area is recomputed on save').addTo(layer);
  const edge = circle ? handle(edgeOf(), 'Edge: drag to change the radius').addTo(layer) : undefined;
  const centreAt = (to: L.LatLng) => {
    centre = to;
    circle?.setLatLng(centre);
    edge?.setLatLng(edgeOf());
    changed(lat, centre.lat.toFixed(6));
    changed(lng, centre.lng.toFixed(6));
  };
  middle.on('drag', () => centreAt(middle.getLatLng()));
  edge?.on('drag', () => {
    const metres = Math.round(Math.min(MAX_RADIUS, Math.max(MIN_RADIUS, centre.distanceTo(edge.getLatLng()))));
    circle?.setRadius(metres);
    changed(radius, String(metres));
  });
  edge?.on('dragend', () => edge.setLatLng(edgeOf()));
  map.on('zoomend', () => edge?.setLatLng(edgeOf()));
  // Typed values move the handles too.
  for (const el of [lat, lng, radius]) {
    el?.addEventListener('change', () => {
      const next = L.latLng(Number(lat?.value), Number(lng?.value));
      if (!Number.isFinite(next.lat) || !Number.isFinite(next.lng)) return;
      centre = next;
      middle.setLatLng(centre);
      circle?.setLatLng(centre).setRadius(r());
      edge?.setLatLng(edgeOf());
    });
  }
  return {
    moveTo(to) {
      middle.setLatLng(to);
      centreAt(to);
    },
  };
}
