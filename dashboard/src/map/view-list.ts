// What a canvas layer shows, as a list of buttons: the keyboard's and the screen reader's way to the
// counts, clusters and users painted on the map (a canvas has no elements to focus). Folded in a
// <details> in a map corner, whose buttons are made only while it is open: made on every draw, 2,000 of
// them were the page's largest script cost of a zoom (bench/dashboard.ts, PROFILE=1).
import L from 'leaflet';
import { thousands } from '../words';

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
  private readonly box: HTMLDetailsElement;

  constructor(map: L.Map, private readonly what: string, className: string) {
    const control = new L.Control({ position: 'topright' });
    const box = L.DomUtil.create('details', `view-list ${className}`) as HTMLDetailsElement;
    this.box = box;
    box.addEventListener('toggle', () => this.render());
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
    this.summary.textContent = `${this.what} (${thousands(entries.length)})`;
    this.box.hidden = entries.length === 0;
    this.render();
  }

  private render(): void {
    if (!this.box.open) { this.list.replaceChildren(); return; }
    const items = document.createDocumentFragment();
    this.entries.forEach((entry, i) => {
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
