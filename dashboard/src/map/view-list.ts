// What a canvas layer shows, as a list of buttons: the keyboard's and the screen reader's way to the
// counts, clusters and users painted on the map (a canvas has no elements to focus). Folded in a
// <details> in a map corner; a closed one lays out nothing, so thousands of entries cost only their
// creation, once per answer that changes them.
import L from 'leaflet';

export interface ListEntry {
  /** The button's text. */
  label: string;
  /** Its title (a tooltip, and what the map-user-counts test reads). */
  title?: string;
  activate: () => void;
}

export class ViewList {
  private readonly summary: HTMLElement;
  private readonly list: HTMLUListElement;
  private entries: ListEntry[] = [];

  constructor(map: L.Map, private readonly what: string, className: string) {
    const control = new L.Control({ position: 'topright' });
    const box = L.DomUtil.create('details', `view-list ${className}`);
    this.summary = L.DomUtil.create('summary', '', box);
    this.list = L.DomUtil.create('ul', '', box) as HTMLUListElement;
    this.list.setAttribute('aria-label', what);
    // A click or a wheel in the list is not the map's (no hit test, no zoom).
    L.DomEvent.disableClickPropagation(box);
    L.DomEvent.disableScrollPropagation(box);
    this.list.addEventListener('click', (e) => {
      const i = Number((e.target as HTMLElement).closest('button')?.dataset.i);
      if (Number.isInteger(i)) this.entries[i]?.activate();
    });
    control.onAdd = () => box;
    control.addTo(map);
    this.set([]);
  }

  set(entries: ListEntry[]): void {
    this.entries = entries;
    this.summary.textContent = `${this.what} (${entries.length.toLocaleString('en')})`;
    (this.summary.parentElement as HTMLElement).hidden = entries.length === 0;
    const items = document.createDocumentFragment();
    entries.forEach((entry, i) => {
      const li = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.i = String(i);
      button.textContent = entry.label;
      if (entry.title) button.title = entry.title;
      li.append(button);
      items.append(li);
    });
    this.list.replaceChildren(items);
  }
}
