// A search box that geocodes: as an address is typed, the autocomplete (the imported extracts' addresses
// and places) offers up to five in a list to choose from, by pointer or by the arrow keys and Enter; the
// button, with none chosen, asks the forward geocoder and takes its first answer. The map view flies to
// what was found; a geofence's page moves its shape there.
import L from 'leaflet';
import type { ViewContext } from '../context';
import { attempt, field, h } from '../elements';

export interface FoundAddress {
  at: L.LatLng;
  label: string;
}

/** Characters typed before suggestions are asked for, and the pause after the last key. */
const MIN_CHARS = 3;
const PAUSE_MS = 250;
const SUGGESTIONS = 5;

interface Answer {
  latitude: number;
  longitude: number;
  formattedAddress?: string;
  placeLabel?: string;
  addressLabel?: string;
}

let lists = 0;

const found = (a: Answer, fallback: string): FoundAddress => ({ at: L.latLng(a.latitude, a.longitude), label: a.formattedAddress ?? a.placeLabel ?? a.addressLabel ?? fallback });

/** A search form labelled `label`; `onFound` gets the chosen suggestion or the geocoder's first answer. */
export function addressSearch(ctx: ViewContext, label: string, button: string, onFound: (found: FoundAddress) => void): HTMLElement {
  const listId = `address-options-${++lists}`;
  const address = h('input', {
    name: 'address', type: 'search', placeholder: 'Street and number, or a place', autocomplete: 'off',
    role: 'combobox', 'aria-autocomplete': 'list', 'aria-expanded': 'false', 'aria-controls': listId,
  });
  const options = h('ul', { id: listId, role: 'listbox', class: 'address-options', 'aria-label': 'Suggested addresses', hidden: true });
  const error = h('p', { class: 'error', role: 'alert' });
  const form = h('form', { class: 'row', role: 'search', 'aria-label': 'Address search' }, field(label, address), h('button', { type: 'submit' }, button));
  let suggestions: FoundAddress[] = [];
  let active = -1;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let asked = 0;

  const mark = (): void => {
    [...options.children].forEach((li, i) => li.setAttribute('aria-selected', String(i === active)));
    if (active >= 0) address.setAttribute('aria-activedescendant', `${listId}-${active}`);
    else address.removeAttribute('aria-activedescendant');
  };
  const close = (): void => {
    options.hidden = true;
    address.setAttribute('aria-expanded', 'false');
    active = -1;
    mark();
  };
  const choose = (f: FoundAddress): void => {
    address.value = f.label;
    close();
    error.textContent = '';
    onFound(f);
  };
  const show = (): void => {
    options.replaceChildren(...suggestions.map((s, i) => {
      const li = h('li', { id: `${listId}-${i}`, role: 'option', 'aria-selected': 'false' }, s.label);
      // On mousedown, before the field's blur closes the list.
      li.addEventListener('mousedown', (e) => { e.preventDefault(); choose(s); });
      return li;
    }));
    options.hidden = suggestions.length === 0;
    address.setAttribute('aria-expanded', String(suggestions.length > 0));
    active = -1;
    mark();
  };

  address.addEventListener('input', () => {
    if (timer) clearTimeout(timer);
    const query = address.value.trim();
    const mine = ++asked;
    if (query.length < MIN_CHARS) {
      suggestions = [];
      close();
      return;
    }
    timer = setTimeout(() => {
      void ctx.api.get('/v1/search/autocomplete', { query, limit: SUGGESTIONS }).then(({ addresses }) => {
        // Only the latest question's answer is shown.
        if (mine !== asked) return;
        suggestions = ((addresses ?? []) as Answer[]).map((a) => found(a, query));
        show();
      }, () => undefined);
    }, PAUSE_MS);
  });
  address.addEventListener('keydown', (e) => {
    if (options.hidden || suggestions.length === 0) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      // Through none (-1, the text as typed) and each suggestion, round.
      const n = suggestions.length;
      active = e.key === 'ArrowDown' ? (active + 1 >= n ? -1 : active + 1) : (active - 1 < -1 ? n - 1 : active - 1);
      mark();
    } else if (e.key === 'Enter' && active >= 0) {
      e.preventDefault();
      choose(suggestions[active]);
    } else if (e.key === 'Escape') {
      close();
    }
  });
  address.addEventListener('blur', close);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const query = address.value.trim();
    if (!query) return;
    ++asked;
    close();
    void attempt(error, async () => {
      const { addresses } = await ctx.api.get('/v1/geocode/forward', { query });
      const best = (addresses ?? [])[0] as Answer | undefined;
      if (!best) throw new Error(`No address found for “${query}”.`);
      onFound(found(best, query));
    });
  });
  return h('div', { class: 'address-search' }, form, options, error);
}
