// Create or edit one geofence: a shape drawn on the map (or typed), its identity and metadata.
import type { ViewContext } from '../context';
import { attempt, field, h, toast } from '../elements';
import type { DrawnShape } from '../map/draw-tool';
import type { GeofenceShape } from '../map/geofence-layer';

export interface GeofenceFormOptions {
  /** A new geofence's shape; absent when editing. */
  shape?: DrawnShape;
  existing?: GeofenceShape & { metadata?: Record<string, unknown> };
  onSaved(g: GeofenceShape): void;
}

function shapeOf(g: GeofenceShape): DrawnShape {
  if (g.type === 'polygon' && g.geometry) return { type: 'polygon', ring: g.geometry.coordinates[0] as Array<[number, number]> };
  return { type: 'circle', center: g.geometryCenter.coordinates, radius: g.geometryRadius ?? 100 };
}

export function geofenceForm(ctx: ViewContext, opts: GeofenceFormOptions): HTMLElement {
  const g = opts.existing;
  const shape = opts.shape ?? (g ? shapeOf(g) : { type: 'circle', center: [0, 0], radius: 100 } as DrawnShape);
  const input = (name: string, value = '', extra: Record<string, string> = {}) => h('input', { name, value, ...extra });
  const description = input('description', g?.description ?? '', { required: 'true' });
  const tag = input('tag', g?.tag ?? '');
  const externalId = input('externalId', g?.externalId ?? '');
  const metadata = h('textarea', { name: 'metadata', rows: 3 }, g?.metadata ? JSON.stringify(g.metadata) : '');
  const enabled = h('input', { type: 'checkbox', name: 'enabled', checked: g?.enabled !== false });
  const lat = input('latitude', shape.type === 'circle' ? String(shape.center[1]) : '', { inputmode: 'decimal' });
  const lng = input('longitude', shape.type === 'circle' ? String(shape.center[0]) : '', { inputmode: 'decimal' });
  const radius = input('radius', shape.type === 'circle' ? String(shape.radius) : '', { inputmode: 'numeric' });
  const ring = h('textarea', { name: 'coordinates', rows: 3 }, shape.type === 'polygon' ? JSON.stringify(shape.ring) : '');
  const error = h('p', { class: 'error', role: 'alert' });
  const save = h('button', { type: 'submit', class: 'primary' }, g ? 'Save changes' : 'Create geofence');

  const shapeFields = shape.type === 'circle'
    ? [field('Centre latitude', lat), field('Centre longitude', lng), field('Radius (metres, 10–10000)', radius)]
    : [field('Corners ([longitude, latitude] pairs, first = last)', ring)];

  const form = h('form', { 'aria-label': g ? 'Edit geofence' : 'New geofence' },
    h('h2', {}, g ? 'Edit geofence' : `New ${shape.type}`),
    field('Description', description),
    h('div', { class: 'row' }, field('Tag', tag), field('External ID', externalId)),
    ...shapeFields,
    field('Metadata (JSON object)', metadata, 'For example {"store": "12"}'),
    h('div', { class: 'field' }, h('label', {}, enabled, ' Enabled')),
    error, save);

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void attempt(error, async () => {
      const body: Record<string, unknown> = {
        description: description.value, type: shape.type, enabled: enabled.checked,
        coordinates: shape.type === 'circle' ? [Number(lng.value), Number(lat.value)] : JSON.parse(ring.value || '[]'),
      };
      if (shape.type === 'circle') body.radius = Number(radius.value);
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
