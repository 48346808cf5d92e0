// A canvas of the dashboard's own in a Leaflet pane, covering the map and drawn for one view: the
// geofences and the users are painted on these rather than as one Leaflet object (SVG path, DOM marker)
// each, whose creation, projection and zoom animation made the longest frames with thousands of them.
import L from 'leaflet';

export class CanvasPane {
  readonly canvas: HTMLCanvasElement;

  constructor(private readonly map: L.Map, name: string, zIndex: number, className: string) {
    const pane = map.createPane(name);
    pane.style.zIndex = String(zIndex);
    pane.style.pointerEvents = 'none';
    this.canvas = L.DomUtil.create('canvas', className, pane) as HTMLCanvasElement;
    // What it shows is offered to assistive technology by the layer's list, not by the picture.
    this.canvas.setAttribute('aria-hidden', 'true');
    // The canvas is drawn for one zoom: hide it while Leaflet animates to the next.
    map.on('zoomstart', () => { this.canvas.style.visibility = 'hidden'; });
  }

  /** A cleared 2D context sized and placed over the map's current view, in CSS pixels. */
  begin(): CanvasRenderingContext2D | null {
    const size = this.map.getSize();
    const ratio = window.devicePixelRatio || 1;
    const canvas = this.canvas;
    // Setting a canvas's size clears it; setting it to the same size still does, and is cheap.
    canvas.width = size.x * ratio;
    canvas.height = size.y * ratio;
    canvas.style.width = `${size.x}px`;
    canvas.style.height = `${size.y}px`;
    L.DomUtil.setPosition(canvas, this.map.containerPointToLayerPoint([0, 0]));
    canvas.style.visibility = '';
    const ctx = canvas.getContext('2d');
    ctx?.scale(ratio, ratio);
    return ctx;
  }
}

/** The label of a count in a bubble: "7", "1.2k", "12k". */
export function shortCount(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(n >= 10000 ? 0 : 1)}k` : String(n);
}
