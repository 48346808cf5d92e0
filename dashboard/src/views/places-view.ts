// Places and beacons. Places: the imported places searched by name (GET /v1/search/autocomplete, place
// layer) or by chain and category around a point (GET /v1/search/places, as the SDKs ask), on a map.
// Beacons: the list, add or edit one (by tag and external ID), enable/disable, delete.
import L from 'leaflet';
import type { ViewContext } from '../context';
import { attempt, field, h, table, toast, when } from '../elements';
import { fitAndDecorate, smallMap } from '../map/small-map';
import { openingView } from '../map/opening-view';
import { count } from '../words';

export async function placesView(ctx: ViewContext): Promise<void> {
  const name = h('input', { name: 'name', type: 'search', placeholder: 'Starbucks, Main Street museum…' });
  const chains = h('input', { name: 'chains', placeholder: 'starbucks,mcdonalds' });
  const categories = h('input', { name: 'categories', placeholder: 'coffee-shop,food-beverage' });
  const near = h('input', { name: 'near', placeholder: 'latitude,longitude' });
  const radius = h('input', { name: 'radius', type: 'number', value: '1000', min: '1', max: '10000' });
  const error = h('p', { class: 'error', role: 'alert' });
  const results = h('div', { id: 'place-results', 'aria-live': 'polite' });
  const mapEl = h('div', { class: 'map', id: 'places-map', style: 'height: 360px', role: 'region', 'aria-label': 'Places found' });
  const form = h('form', { role: 'search', 'aria-label': 'Search places' },
    h('div', { class: 'row' }, field('Name', name, 'Searched in the imported places and addresses.'), field('Chains (slugs)', chains), field('Categories (slugs)', categories)),
    h('div', { class: 'row' }, field('Near', near, 'Defaults to the middle of your data.'), field('Radius (metres, ≤ 10,000)', radius), h('button', { type: 'submit', class: 'primary' }, 'Search')));
  ctx.root.append(h('h1', {}, `Places · ${ctx.env}`), h('div', { class: 'card' }, form, error), h('div', { class: 'map-layout', style: 'height:auto' }, mapEl, h('div', { class: 'card' }, results)));
  const map = smallMap(ctx, mapEl);
  const layer = L.layerGroup().addTo(map);
  const opening = await openingView(ctx.api).catch(() => undefined);
  if (opening) { const c = opening.getCenter(); near.value = `${c.lat.toFixed(5)},${c.lng.toFixed(5)}`; }
  fitAndDecorate(map, ctx.api, opening ? [[opening.getSouth(), opening.getWest()], [opening.getNorth(), opening.getEast()]] : []);

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void attempt(error, async () => {
      let found: Array<{ name: string; categories?: string[]; chain?: { name: string }; location?: { coordinates: [number, number] }; address?: string }> = [];
      if (name.value.trim()) {
        const { addresses } = await ctx.api.get('/v1/search/autocomplete', { query: name.value.trim(), near: near.value || undefined, limit: 20 });
        found = (addresses ?? []).map((a: any) => ({ name: a.placeLabel ?? a.addressLabel ?? a.formattedAddress, categories: a.layer ? [a.layer] : [], location: { coordinates: [a.longitude, a.latitude] }, address: a.formattedAddress }));
      } else {
        if (!near.value) throw new Error('Give a point (latitude,longitude) to search around.');
        if (!chains.value && !categories.value) throw new Error('Give a name, or chains or categories to search for.');
        const { places } = await ctx.api.get('/v1/search/places', { near: near.value, radius: radius.value, chains: chains.value || undefined, categories: categories.value || undefined, limit: 100 });
        found = places ?? [];
      }
      layer.clearLayers();
      const points: Array<[number, number]> = [];
      for (const p of found) {
        const c = p.location?.coordinates;
        if (!c) continue;
        points.push([c[1], c[0]]);
        L.circleMarker([c[1], c[0]], { radius: 6, color: '#6a1b9a', fillOpacity: 0.6 }).bindTooltip(p.name).addTo(layer);
      }
      if (points.length) map.fitBounds(L.latLngBounds(points).pad(0.2), { maxZoom: 17 });
      results.replaceChildren(found.length
        ? table(['Name', 'Chain', 'Categories / kind'], found.map((p) => [p.name, p.chain?.name ?? '—', p.categories?.join(', ') || '—']), count(found.length, 'place'))
        : h('p', { class: 'muted' }, 'Nothing found.'));
    });
  });
}

interface Beacon {
  _id: string; description: string; tag?: string; externalId?: string; type: 'ibeacon' | 'eddystone'; enabled: boolean;
  uuid?: string; major?: string; minor?: string; uid?: string; instance?: string; geometry?: { coordinates: [number, number] }; createdAt: string;
}

export async function beaconsView(ctx: ViewContext): Promise<void> {
  const error = h('p', { class: 'error', role: 'alert' });
  const list = h('div', { id: 'beacon-list' });
  const input = (n: string, extra: Record<string, string> = {}) => h('input', { name: n, ...extra });
  const f = {
    description: input('description', { required: 'true' }), tag: input('tag', { required: 'true' }), externalId: input('externalId', { required: 'true' }),
    type: h('select', { name: 'type' }, h('option', { value: 'ibeacon' }, 'iBeacon'), h('option', { value: 'eddystone' }, 'Eddystone')),
    uuid: input('uuid', { placeholder: 'iBeacon UUID' }), major: input('major', { inputmode: 'numeric' }), minor: input('minor', { inputmode: 'numeric' }),
    uid: input('uid', { placeholder: '20 hex characters' }), instance: input('instance', { placeholder: '12 hex characters' }),
    lat: input('latitude', { inputmode: 'decimal', required: 'true' }), lng: input('longitude', { inputmode: 'decimal', required: 'true' }),
  };
  const form = h('form', { 'aria-label': 'Add or edit a beacon' }, h('h2', {}, 'Add or edit a beacon'),
    h('div', { class: 'row' }, field('Description', f.description), field('Tag', f.tag), field('External ID', f.externalId), field('Kind', f.type)),
    h('div', { class: 'row' }, field('UUID', f.uuid), field('Major', f.major), field('Minor', f.minor), field('Namespace (UID)', f.uid), field('Instance', f.instance)),
    h('div', { class: 'row' }, field('Latitude', f.lat), field('Longitude', f.lng), h('button', { type: 'submit', class: 'primary' }, 'Save beacon')));
  const fill = (b: Beacon) => {
    f.description.value = b.description; f.tag.value = b.tag ?? ''; f.externalId.value = b.externalId ?? ''; f.type.value = b.type;
    f.uuid.value = b.uuid ?? ''; f.major.value = b.major ?? ''; f.minor.value = b.minor ?? ''; f.uid.value = b.uid ?? ''; f.instance.value = b.instance ?? '';
    f.lat.value = String(b.geometry?.coordinates[1] ?? ''); f.lng.value = String(b.geometry?.coordinates[0] ?? '');
    f.description.focus();
  };
  const load = async () => {
    const { beacons } = (await ctx.api.get('/v1/beacons', { limit: 1000 })) as { beacons: Beacon[] };
    list.replaceChildren(beacons.length
      ? table(['Beacon', 'Tag / external ID', 'Identity', 'State', 'Created', ''], beacons.map((b) => {
        const edit = h('button', { type: 'button', 'aria-label': `Edit ${b.description}` }, 'Edit');
        edit.addEventListener('click', () => fill(b));
        const toggle = h('button', { type: 'button', 'aria-label': `${b.enabled ? 'Disable' : 'Enable'} ${b.description}` }, b.enabled ? 'Disable' : 'Enable');
        toggle.addEventListener('click', () => void attempt(error, async () => {
          await ctx.api.send('PUT', `/v1/beacons/${b._id}`, { ...body(b), enabled: !b.enabled }); await load();
        }));
        const remove = h('button', { type: 'button', class: 'danger', 'aria-label': `Delete ${b.description}` }, 'Delete');
        remove.addEventListener('click', () => void attempt(error, async () => {
          if (!confirm(`Delete the beacon "${b.description}"?`)) return;
          await ctx.api.send('DELETE', `/v1/beacons/${b._id}`); toast('Beacon deleted'); await load();
        }));
        return [b.description, `${b.tag ?? '—'} / ${b.externalId ?? '—'}`, b.type === 'ibeacon' ? `${b.uuid} ${b.major}/${b.minor}` : `${b.uid} ${b.instance}`,
          h('span', { class: `pill ${b.enabled ? 'ok' : 'warn'}` }, b.enabled ? 'enabled' : 'disabled'), when(b.createdAt), h('span', { class: 'row' }, edit, toggle, remove)];
      }), count(beacons.length, 'beacon'))
      : h('p', { class: 'muted' }, 'No beacons yet.'));
  };
  const body = (b?: Beacon): Record<string, unknown> => {
    if (b) {
      const { _id, createdAt, geometry, ...rest } = b as Beacon & Record<string, unknown>;
      void _id; void createdAt;
      return { ...rest, coordinates: geometry?.coordinates };
    }
    const out: Record<string, unknown> = { description: f.description.value, type: f.type.value, coordinates: [Number(f.lng.value), Number(f.lat.value)] };
    if (f.type.value === 'ibeacon') Object.assign(out, { uuid: f.uuid.value, major: f.major.value, minor: f.minor.value });
    else Object.assign(out, { uid: f.uid.value, instance: f.instance.value });
    return out;
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void attempt(error, async () => {
      await ctx.api.send('PUT', `/v1/beacons/${encodeURIComponent(f.tag.value)}/${encodeURIComponent(f.externalId.value)}`, body());
      toast('Beacon saved');
      form.reset();
      await load();
    });
  });
  ctx.root.append(h('h1', {}, `Beacons · ${ctx.env}`), h('div', { class: 'card' }, list, error), h('div', { class: 'card' }, form));
  await attempt(error, load);
}
