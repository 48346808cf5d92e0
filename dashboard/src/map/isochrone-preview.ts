// An isochrone's new area shown while its centre, travel time or mode is being changed, before Save:
// the form's values go to POST /v1/geofences/preview (the area computed as a save would, nothing saved)
// a moment after the last change, and the answer's outline is drawn dashed over the saved shape.
import L from 'leaflet';
import type { Api } from '../api';
import { h } from '../elements';

/** Quiet time after the last change before asking: typing "15" asks once, not for 1 and 15. */
const SETTLE_MS = 400;

export function previewIsochrone(map: L.Map, form: HTMLElement, api: Api): HTMLElement {
  const status = h('p', { class: 'muted', id: 'isochrone-preview', 'aria-live': 'polite' }, 'Change the time, mode or centre to see the new area before saving.');
  const value = (name: string) => (form.querySelector(`[name="${name}"]`) as HTMLInputElement | HTMLSelectElement | null)?.value ?? '';
  let outline: L.Polygon | undefined;
  // SVG, not the map's canvas: one shape, and an element a test (or a stylesheet) can find.
  const renderer = L.svg();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let asked = 0;
  const ask = async () => {
    const mine = ++asked;
    // The description is checked like a save's; a form whose description is being typed still previews.
    const body = { description: value('description') || 'Preview', type: 'isochrone', coordinates: [Number(value('longitude')), Number(value('latitude'))], radius: Number(value('minutes')), mode: value('mode') };
    status.textContent = 'Computing the new area…';
    try {
      const { geofence } = await api.send('POST', '/v1/geofences/preview', body);
      if (mine !== asked) return;
      const ring = (geofence.geometry?.coordinates?.[0] ?? []) as Array<[number, number]>;
      outline?.remove();
      outline = L.polygon(ring.map(([x, y]) => L.latLng(y, x)), { color: '#2e7d32', weight: 2, dashArray: '6 4', fillOpacity: 0.1, interactive: false, className: 'isochrone-preview', renderer }).addTo(map);
      status.textContent = `New area (not saved yet): ${body.radius} min by ${body.mode}, ${ring.length - 1} corners.`;
    } catch (err) {
      if (mine !== asked) return;
      outline?.remove();
      outline = undefined;
      status.textContent = err instanceof Error ? err.message : String(err);
    }
  };
  const changed = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void ask(), SETTLE_MS);
  };
  for (const name of ['latitude', 'longitude', 'minutes', 'mode']) {
    const el = form.querySelector(`[name="${name}"]`);
    el?.addEventListener('input', changed);
    el?.addEventListener('change', changed);
  }
  return status;
}
