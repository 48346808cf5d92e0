// Create or edit one geofence: a shape drawn on the map (or typed), its identity and metadata. An
// isochrone keeps its kind: it is edited as its centre, travel time and mode, never as a circle.
import type { ViewContext } from '../context';
import { attempt, field, h, toast } from '../elements';
import type { DrawnShape } from '../map/draw-tool';

export interface ExistingGeofence {
  _id: string;
  description: string;
  tag?: string;
  externalId?: string;
  type: 'circle' | 'polygon' | 'isochrone';
  enabled?: boolean;
  mode?: string;
  geometryCenter: { coordinates: [number, number] };
  geometryRadius?: number;
  geometry?: { coordinates: number[][][] };
  metadata?: Record<string, unknown>;
}

type FormShape = DrawnShape | { type: 'isochrone'; center: [number, number]; minutes: number; mode: string };

export interface GeofenceFormOptions {
  /** A new geofence's shape; absent when editing. */
  shape?: DrawnShape;
  existing?: ExistingGeofence;
  onSaved(g: any): void;
  /** Given: the form has a Cancel button calling it. */
  onCancel?(): void;
}

const MODES = ['car', 'truck', 'bike', 'foot'];

function shapeOf(g: ExistingGeofence): FormShape {
  if (g.type === 'polygon' && g.geometry) return { type: 'polygon', ring: g.geometry.coordinates[0] as Array<[number, number]> };
  if (g.type === 'isochrone') return { type: 'isochrone', center: g.geometryCenter.coordinates, minutes: g.geometryRadius ?? 5, mode: g.mode ?? 'car' };
  return { type: 'circle', center: g.geometryCenter.coordinates, radius: g.geometryRadius ?? 100 };
}

export function geofenceForm(ctx: ViewContext, opts: GeofenceFormOptions): HTMLElement {
  const g = opts.existing;
  const shape: FormShape = opts.shape ?? (g ? shapeOf(g) : { type: 'circle', center: [0, 0], radius: 100 });
  const input = (name: string, value = '', extra: Record<string, string> = {}) => h('input', { name, value, ...extra });
  const description = input('description', g?.description ?? '', { required: 'true' });
  const tag = input('tag', g?.tag ?? '');
  const externalId = input('externalId', g?.externalId ?? '');
  const metadata = h('textarea', { name: 'metadata', rows: 3 }, g?.metadata ? JSON.stringify(g.metadata) : '');
  const enabled = h('input', { type: 'checkbox', name: 'enabled', checked: g?.enabled !== false });
  const centred = shape.type === 'circle' || shape.type === 'isochrone';
  const lat = input('latitude', centred ? String(shape.center[1]) : '', { inputmode: 'decimal' });
  const lng = input('longitude', centred ? String(shape.center[0]) : '', { inputmode: 'decimal' });
  const radius = input('radius', shape.type === 'circle' ? String(shape.radius) : '', { inputmode: 'numeric' });
  const minutes = input('minutes', shape.type === 'isochrone' ? String(shape.minutes) : '', { inputmode: 'numeric' });
  const mode = h('select', { name: 'mode' }, MODES.map((m) => h('option', { value: m, selected: shape.type === 'isochrone' && shape.mode === m }, m)));
  const ring = h('textarea', { name: 'coordinates', rows: 3 }, shape.type === 'polygon' ? JSON.stringify(shape.ring) : '');
  const error = h('p', { class: 'error', role: 'alert' });
  const save = h('button', { type: 'submit', class: 'primary' }, g ? 'Save changes' : 'Create geofence');
  const cancel = opts.onCancel ? h('button', { type: 'button' }, 'Cancel') : null;
  cancel?.addEventListener('click', () => opts.onCancel?.());

  const shapeFields = shape.type === 'circle'
    ? [field('Centre latitude', lat), field('Centre longitude', lng), field('Radius (metres, 10–10000)', radius)]
    : shape.type === 'isochrone'
      ? [field('Centre latitude', lat), field('Centre longitude', lng), field('Travel time (minutes, 1–60)', minutes), field('Travel mode', mode),
        h('p', { class: 'muted' }, 'The area is recomputed from the road network when the centre, time or mode changes.')]
      : [field('Corners ([longitude, latitude] pairs, first = last)', ring)];

  const form = h('form', { 'aria-label': g ? 'Edit geofence' : 'New geofence' },
    h('h2', {}, g ? `Edit ${shape.type}` : `New ${shape.type}`),
    field('Description', description),
    h('div', { class: 'row' }, field('Tag', tag), field('External ID', externalId)),
    ...shapeFields,
    field('Metadata (JSON object)', metadata, 'For example {"store": "12"}'),
    h('div', { class: 'field' }, h('label', {}, enabled, ' Enabled')),
    error, h('div', { class: 'row' }, save, cancel));

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void attempt(error, async () => {
      const body: Record<string, unknown> = { description: description.value, type: shape.type, enabled: enabled.checked };
      if (shape.type === 'polygon') body.coordinates = JSON.parse(ring.value || '[]');
      else body.coordinates = [Number(lng.value), Number(lat.value)];
      if (shape.type === 'circle') body.radius = Number(radius.value);
      if (shape.type === 'isochrone') { body.radius = Number(minutes.value); body.mode = mode.value; }
      if (metadata.value.trim()) body.metadata = JSON.parse(metadata.value);
      if (tag.value) body.tag = tag.value;
      if (externalId.value) body.externalId = externalId.value;
      const path = g
        ? `/v1/geofences/${g._id}`
        : tag.value && externalId.value ? `/v1/geofences/${encodeURIComponent(tag.value)}/${encodeURIComponent(externalId.value)}` : '/v1/geofences';
      const { geofence } = await ctx.api.send(g || path !== '/v1/geofences' ? 'PUT' : 'POST', path, body);
      toast(g ? 'Geofence saved' : 'Geofence created');
      opts.onSaved(geofence);
    });
  });
  return form;
}
