// Where the map opens: around the geofences (GET /v1/data/overview), else the imported extracts,
// else the most recently seen users; the whole world only for an empty environment.
import L from 'leaflet';
import type { Api } from '../api';

type Box = [number, number, number, number];

function bounds([w, s, e, n]: Box): L.LatLngBounds {
  // A lone point or a tiny geofence still opens at street scale, not at the maximum zoom.
  const pad = 0.002;
  return L.latLngBounds([s - pad, w - pad], [n + pad, e + pad]);
}

export async function openingView(api: Api): Promise<L.LatLngBounds | undefined> {
  const { geofences } = await api.get('/v1/data/overview');
  if (geofences?.bbox) return bounds(geofences.bbox);
  const { extracts } = await api.get('/v1/data/extracts').catch(() => ({ extracts: [] }));
  const withBox = (extracts ?? []).filter((e: { bbox?: Box }) => e.bbox?.length === 4);
  if (withBox.length) {
    const all = withBox.map((e: { bbox: Box }) => e.bbox) as Box[];
    return bounds([Math.min(...all.map((b) => b[0])), Math.min(...all.map((b) => b[1])), Math.max(...all.map((b) => b[2])), Math.max(...all.map((b) => b[3]))]);
  }
  const { users } = await api.get('/v1/users', { limit: 100 });
  const points = ((users ?? []) as Array<{ location?: { coordinates: [number, number] } }>).map((u) => u.location?.coordinates).filter((c): c is [number, number] => !!c);
  if (points.length === 0) return undefined;
  return bounds([Math.min(...points.map((p) => p[0])), Math.min(...points.map((p) => p[1])), Math.max(...points.map((p) => p[0])), Math.max(...points.map((p) => p[1]))]);
}
