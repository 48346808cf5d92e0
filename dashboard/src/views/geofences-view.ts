// Geofences: the list with the API's filters, enable/disable, edit and delete; the CSV upload with its
// per-row report; the nightly-sync settings and the history of runs.
import L from 'leaflet';
import type { ViewContext } from '../context';
import { attempt, field, h, table, toast, when } from '../elements';
import { addGraticule } from '../map/basemap';
import { GeofenceLayer } from '../map/geofence-layer';
import { sketchOf, shapeLabel } from '../map/map-data';
import { addRoads } from '../map/roads';
import { addressSearch, type FoundAddress } from '../map/address-search';
import { editShapeOnMap } from '../map/shape-editor';
import { previewIsochrone } from '../map/isochrone-preview';
import { count } from '../words';
import { geofenceForm, type ExistingGeofence } from './geofence-form';

type GeofenceShape = ExistingGeofence & { createdAt: string };
import { importCard, syncCard } from './geofence-import';

const PAGE = 100;

export async function geofencesView(ctx: ViewContext, id?: string): Promise<void> {
  if (id) return geofenceDetail(ctx, id);
  const tag = h('input', { name: 'tag' });
  const externalId = h('input', { name: 'externalId' });
  const metadataKey = h('input', { name: 'metadataKey', placeholder: 'key' });
  const metadataValue = h('input', { name: 'metadataValue', placeholder: 'value' });
  const list = h('div', { id: 'geofence-list', 'aria-live': 'polite' });
  const more = h('button', { type: 'button', hidden: true }, 'Load more');
  const error = h('p', { class: 'error', role: 'alert' });
  let before: string | undefined;

  const row = (g: GeofenceShape & { metadata?: Record<string, unknown> }) => {
    const toggle = h('button', { type: 'button', 'aria-label': `${g.enabled === false ? 'Enable' : 'Disable'} ${g.description}` }, g.enabled === false ? 'Enable' : 'Disable');
    toggle.addEventListener('click', () => void attempt(error, async () => {
      await ctx.api.send('PUT', `/v1/geofences/${g._id}`, { ...editable(g), enabled: g.enabled === false });
      toast('Saved');
      await load(true);
    }));
    const remove = h('button', { type: 'button', class: 'danger', 'aria-label': `Delete ${g.description}` }, 'Delete');
    remove.addEventListener('click', () => void attempt(error, async () => {
      if (!confirm(`Delete the geofence "${g.description}"? Users inside it leave it silently.`)) return;
      await ctx.api.send('DELETE', `/v1/geofences/${g._id}`);
      toast('Deleted');
      await load(true);
    }));
    return [
      h('a', { href: `#/geofences/${g._id}` }, g.description || g._id),
      `${g.tag ?? '—'} / ${g.externalId ?? '—'}`,
      shapeLabel(g),
      g.enabled === false ? h('span', { class: 'pill warn' }, 'disabled') : h('span', { class: 'pill ok' }, 'enabled'),
      when(g.createdAt),
      h('span', { class: 'row' }, toggle, remove),
    ];
  };

  const rows: Array<ReturnType<typeof row>> = [];
  const load = async (reset: boolean) => {
    if (reset) { rows.length = 0; before = undefined; }
    const query: Record<string, string | number | undefined> = { limit: PAGE, tag: tag.value || undefined, externalId: externalId.value || undefined, createdBefore: before };
    if (metadataKey.value) query[`metadata[${metadataKey.value}]`] = metadataValue.value;
    const page = await ctx.api.get('/v1/geofences', query);
    const items = (page.geofences ?? []) as GeofenceShape[];
    rows.push(...items.map(row));
    before = items.length ? items[items.length - 1].createdAt : before;
    more.hidden = !page.meta?.hasMore;
    list.replaceChildren(rows.length ? table(['Description', 'Tag / external ID', 'Type', 'State', 'Created', ''], rows, `${count(rows.length, 'geofence')} shown`) : h('p', { class: 'muted' }, 'No geofences match.'));
  };
  more.addEventListener('click', () => void attempt(error, () => load(false)));
  const filters = h('form', { class: 'row', role: 'search', 'aria-label': 'Filter geofences' },
    field('Tag', tag), field('External ID', externalId), field('Metadata key', metadataKey), field('Metadata value', metadataValue),
    h('button', { type: 'submit' }, 'Filter'));
  filters.addEventListener('submit', (e) => { e.preventDefault(); void attempt(error, () => load(true)); });

  ctx.root.append(
    h('h1', {}, `Geofences · ${ctx.env}`),
    h('p', {}, 'Draw new geofences on the ', h('a', { href: '#/map' }, 'map'), '.'),
    h('div', { class: 'card' }, filters, error, list, more),
    importCard(ctx, () => load(true)),
    syncCard(ctx),
  );
  await attempt(error, () => load(true));
}

/** The fields a PUT takes back, from a geofence as the API returns it. */
function editable(g: GeofenceShape & { metadata?: Record<string, unknown> }): Record<string, unknown> {
  const body: Record<string, unknown> = { description: g.description, type: g.type, tag: g.tag, externalId: g.externalId, metadata: g.metadata };
  if (g.type === 'polygon' && g.geometry) body.coordinates = g.geometry.coordinates;
  else { body.coordinates = g.geometryCenter.coordinates; body.radius = g.geometryRadius; }
  if (g.type === 'isochrone') body.mode = g.mode;
  return body;
}

async function geofenceDetail(ctx: ViewContext, id: string): Promise<void> {
  const error = h('p', { class: 'error', role: 'alert' });
  ctx.root.append(h('p', {}, h('a', { href: '#/geofences' }, '← All geofences')), error);
  await attempt(error, async () => {
    const { geofence } = await ctx.api.get(`/v1/geofences/${encodeURIComponent(id)}`);
    const mapEl = h('div', { class: 'map', id: 'geofence-map', style: 'height: 420px', role: 'region', 'aria-label': 'The geofence on a map: drag the handles to change its shape' });
    const form = geofenceForm(ctx, { existing: geofence, onSaved: () => ctx.navigate('#/geofences') });
    let moveTo: (found: FoundAddress) => void = () => undefined;
    const search = addressSearch(ctx, 'Move to an address', 'Move here', (found) => moveTo(found));
    ctx.root.append(h('h1', {}, geofence.description || geofence._id),
      h('div', { class: 'map-layout', style: 'height:auto' }, h('div', {}, search, mapEl), h('div', { class: 'card' }, form)));
    const map = L.map(mapEl, { preferCanvas: true });
    ctx.onLeave(() => map.remove());
    const sketch = sketchOf(geofence);
    const [w, s, e, n] = sketch.bbox;
    map.fitBounds([[s, w], [n, e]], { padding: [24, 24], maxZoom: 18, animate: false });
    new GeofenceLayer(map, () => undefined).set([sketch]);
    const editor = editShapeOnMap(map, form, geofence.type);
    if (geofence.type === 'isochrone') mapEl.after(previewIsochrone(map, form, ctx.api));
    // Snapping to an address moves the shape there; nothing is saved until Save, like a drag.
    moveTo = ({ at, label }) => {
      editor.moveTo(at);
      map.panTo(at, { animate: false });
      toast(`Moved to ${label}: Save to keep it`);
    };
    addGraticule(map);
    void addRoads(map, ctx.api);
  });
}
