// A search box that geocodes: the forward geocoder (the imported extracts' addresses and places) is asked
// for what was typed, and its first answer handed on. The map view flies there; a geofence's page moves
// its shape there.
import L from 'leaflet';
import type { ViewContext } from '../context';
import { attempt, field, h } from '../elements';

export interface FoundAddress {
  at: L.LatLng;
  label: string;
}

/** A search form labelled `label`; `onFound` gets the geocoder's first answer. An unknown address says so. */
export function addressSearch(ctx: ViewContext, label: string, button: string, onFound: (found: FoundAddress) => void): HTMLElement {
  const address = h('input', { name: 'address', type: 'search', placeholder: 'Street and number, or a place', autocomplete: 'off' });
  const error = h('p', { class: 'error', role: 'alert' });
  const form = h('form', { class: 'row', role: 'search', 'aria-label': 'Address search' }, field(label, address), h('button', { type: 'submit' }, button));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const query = address.value.trim();
    if (!query) return;
    void attempt(error, async () => {
      const { addresses } = await ctx.api.get('/v1/geocode/forward', { query });
      const best = (addresses ?? [])[0] as { latitude: number; longitude: number; formattedAddress?: string } | undefined;
      if (!best) throw new Error(`No address found for “${query}”.`);
      onFound({ at: L.latLng(best.latitude, best.longitude), label: best.formattedAddress ?? query });
    });
  });
  return h('div', { class: 'address-search' }, form, error);
}
