// A canvas of the dashboard's own in a Leaflet pane, covering the map and drawn for one view: the
// geofences and the users are painted on these rather than as one Leaflet object (SVG path, DOM marker)
// each, whose creation, projection and zoom animation made the longest frames with thousands of them.
// Between two draws the canvas follows the map as Leaflet's own renderers do: a pan carries it along, a
// zoom scales it (a CSS transform), so that a layer whose owner answers every move with new data draws
// once per move, not once at the move's end and again when the data comes.
import L from 'leaflet';

/** Leaflet's pixel origin of a view not reached yet: what its renderers place themselves by during a zoom. */
interface MapWithNewOrigin {
  _getNewPixelOrigin(center: L.LatLng, zoom: number): L.Point;
}

export class CanvasPane {
  readonly canvas: HTMLCanvasElement;
  /** The view the canvas was drawn for: centre, zoom, size, and its top-left corner in layer pixels. */
  private drawn?: { center: L.LatLng; zoom: number; size: L.Point; origin: L.Point };

  constructor(private readonly map: L.Map, name: string, zIndex: number, className: string) {
    const pane = map.createPane(name);
    pane.style.zIndex = String(zIndex);
    pane.style.pointerEvents = 'none';
    // leaflet-zoom-animated: Leaflet's stylesheet eases its transform through a zoom animation.
    this.canvas = L.DomUtil.create('canvas', `${className} leaflet-zoom-animated`, pane) as HTMLCanvasElement;
    // What it shows is offered to assistive technology by the layer's list, not by the picture.
    this.canvas.setAttribute('aria-hidden', 'true');
    map.on('zoomanim', (e: L.ZoomAnimEvent) => this.follow(e.center, e.zoom));
    map.on('zoom', () => this.follow(map.getCenter(), map.getZoom()));
  }

  /** Places the canvas drawn at one zoom where the map shows it at `zoom` around `center` (Leaflet's Renderer._updateTransform). */
  private follow(center: L.LatLng, zoom: number): void {
    const drawn = this.drawn;
    if (!drawn) return;
    const map = this.map;
    const scale = map.getZoomScale(zoom, drawn.zoom);
    const topLeft = drawn.size.multiplyBy(-0.5 * scale).add(map.project(drawn.center, zoom))
      .subtract((map as unknown as MapWithNewOrigin)._getNewPixelOrigin(center, zoom));
    L.DomUtil.setTransform(this.canvas, topLeft, scale);
  }

  /**
   * How far what was drawn has moved on the screen since (container pixels): subtract it from a
   * pointer's container point to find what was drawn under it. Undefined when the zoom or the map's
   * size changed since: the drawing is scaled, and only a new draw says what is where.
   */
  shift(): L.Point | undefined {
    const drawn = this.drawn;
    if (!drawn || drawn.zoom !== this.map.getZoom() || !drawn.size.equals(this.map.getSize())) return undefined;
    return drawn.origin.subtract(this.map.containerPointToLayerPoint([0, 0]));
  }

  /** True when the canvas shows the map's current view exactly (same zoom, size and position). */
  current(): boolean {
    const shift = this.shift();
    return shift !== undefined && shift.x === 0 && shift.y === 0;
  }

  /** A cleared 2D context sized and placed over the map's current view, in CSS pixels. */
  begin(): CanvasRenderingContext2D | null {
    const map = this.map;
    const size = map.getSize();
    const ratio = window.devicePixelRatio || 1;
    const canvas = this.canvas;
    // Setting a canvas's size clears it; setting it to the same size still does, and is cheap.
    canvas.width = size.x * ratio;
    canvas.height = size.y * ratio;
    canvas.style.width = `${size.x}px`;
    canvas.style.height = `${size.y}px`;
    const origin = map.containerPointToLayerPoint([0, 0]);
    L.DomUtil.setPosition(canvas, origin);
    this.drawn = { center: map.getCenter(), zoom: map.getZoom(), size, origin };
    const ctx = canvas.getContext('2d');
    ctx?.scale(ratio, ratio);
    return ctx;
  }
}

/** The label of a count in a bubble: "7", "1.2k", "12k". */
export function shortCount(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(n >= 10000 ? 0 : 1)}k` : String(n);
}

/**
 * Resolves a canvas font before the first draw needs it: its first measure costs ~20 ms (the system
 * font looked up), in whichever task asks first; the font cache is shared by the page's canvases, so a
 * throwaway 1×1 canvas does it. A map-sized canvas warmed the same way would also be given its backing
 * store early, but that store is then sent to the compositor blank in a frame of its own (measured
 * 40–60 ms of thread time each, with software compositing): more than the store's making saves.
 */
export function warmCanvasFont(font: string): void {
  const ctx = document.createElement('canvas').getContext('2d');
  if (!ctx) return;
  ctx.font = font;
  ctx.measureText('0123456789k');
}
