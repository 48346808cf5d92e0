// The shapes GET /v1/data/map answers for a view (core/geofencing/map-sketch.ts), as the
// dashboard reads them.
export interface GeofenceSketch {
  _id: string;
  tag?: string;
  externalId?: string;
  description: string;
  type: 'circle' | 'polygon' | 'isochrone';
  enabled: boolean;
  center: [number, number];
  radius?: number;
  mode?: string;
  ring?: Array<[number, number]>;
  bbox: [number, number, number, number];
}

export interface UserPoint {
  _id: string;
  userId?: string | null;
  deviceId?: string | null;
  coordinates: [number, number];
  updatedAt?: string;
}

/** [longitude, latitude, count] of a crowded view's grid cell. */
export type Cell = [number, number, number];

export interface MapAnswer {
  geofences?: { total: number; shapes: GeofenceSketch[]; cells: Cell[] };
  users?: { total: number; cut: boolean; points: UserPoint[]; cells: Cell[] };
}

/** A geofence as the list and get endpoints answer it, reduced to what the map draws. */
export function sketchOf(g: any): GeofenceSketch {
  const ring: Array<[number, number]> | undefined = g.type !== 'circle' ? g.geometry?.coordinates?.[0] : undefined;
  let bbox: [number, number, number, number];
  if (ring?.length) {
    const xs = ring.map((p) => p[0]), ys = ring.map((p) => p[1]);
    bbox = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
  } else {
    const [x, y] = g.geometryCenter.coordinates;
    const dy = (g.geometryRadius ?? 0) / 111320, dx = dy / Math.max(0.01, Math.cos((y * Math.PI) / 180));
    bbox = [x - dx, y - dy, x + dx, y + dy];
  }
  return {
    _id: g._id, tag: g.tag, externalId: g.externalId, description: g.description, type: g.type, enabled: g.enabled !== false,
    center: g.geometryCenter.coordinates, radius: g.type === 'polygon' ? undefined : g.geometryRadius, mode: g.mode, ring, bbox,
  };
}

/** What a geofence is, in words: "circle · 150 m", "polygon", "isochrone · 5 min by car". */
export function shapeLabel(g: { type: string; radius?: number; geometryRadius?: number; mode?: string }): string {
  const r = g.radius ?? g.geometryRadius;
  if (g.type === 'circle') return r ? `circle · ${Math.round(r)} m` : 'circle';
  if (g.type === 'isochrone') return `isochrone · ${r ?? '?'} min${g.mode ? ` by ${g.mode}` : ''}`;
  return 'polygon';
}
