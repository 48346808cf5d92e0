// A user's location history on a map: the line in time order, and a point per location that names its
// time on hover and tells its details on click (or from the page's list, for keyboard users: show()).
import L from 'leaflet';
import { when } from '../elements';
import { eventLabel } from '../words';

/** One location of a user's history as GET /v1/users/:id/locations lists it. */
export interface LocationItem {
  _id: string;
  createdAt: string;
  location: { coordinates: [number, number] };
  locationAccuracy: number;
  stopped?: boolean;
  foreground?: boolean;
  replayed?: boolean;
  events?: string[];
}

export interface DrawnTrack {
  /** [lat, lng] of every point, for fitting the map. */
  points: Array<[number, number]>;
  /** Opens the details of the location with this _id and centres the map on it. */
  show(id: string): void;
  remove(): void;
}

export function describeLocation(l: LocationItem): string {
  const parts = [when(l.createdAt), `accuracy ${Math.round(l.locationAccuracy)} m`];
  if (l.stopped) parts.push('stopped');
  if (l.replayed) parts.push('sent later');
  if (l.events?.length) parts.push(l.events.map(eventLabel).join(', '));
  return parts.join(' · ');
}

/** Draws `locations` (newest first, as the API lists them) on `map`. */
export function drawTrack(map: L.Map, locations: LocationItem[]): DrawnTrack {
  const group = L.layerGroup().addTo(map);
  const inOrder = [...locations].reverse();
  const points = inOrder.map((l) => [l.location.coordinates[1], l.location.coordinates[0]] as [number, number]);
  if (points.length > 1) L.polyline(points, { color: '#1f6feb', weight: 3, opacity: 0.6, interactive: false }).addTo(group);
  const markers = new Map<string, L.CircleMarker>();
  inOrder.forEach((l, i) => {
    const marker = L.circleMarker(points[i], {
      radius: l.events?.length ? 6 : 4, color: '#fff', weight: 1, fillColor: l.events?.length ? '#d97706' : '#1f6feb', fillOpacity: 0.9,
    });
    marker.bindTooltip(when(l.createdAt)).bindPopup(describeLocation(l)).addTo(group);
    markers.set(l._id, marker);
  });
  return {
    points,
    show(id) {
      const marker = markers.get(id);
      if (!marker) return;
      marker.openPopup();
      // After the popup's own pan: the point ends in the middle, its details above it.
      map.panTo(marker.getLatLng(), { animate: false });
    },
    remove: () => void group.remove(),
  };
}
