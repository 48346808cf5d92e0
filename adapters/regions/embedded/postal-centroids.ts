/**
 * Postal-code points (one per code) grouped by scope ("US-NY", "PR", "CA"), with a
 * nearest-point search restricted to one scope and a maximum distance. One static
 * k-d tree per scope, so a search costs O(log n) whether the point is in Manhattan
 * (dense) or in the Yukon (points hundreds of km apart).
 */
export interface PostalPoint {
  readonly code: string;
  readonly scope: string;
  readonly lng: number;
  readonly lat: number;
}

const METERS_PER_DEGREE = 111_320;
/** Leaf size: below this a linear scan beats further splitting. */
const LEAF_SIZE = 16;

/** A k-d tree in flat arrays: the middle element m of a range splits it, axes alternating by depth. */
class ScopeTree {
  private readonly order: Uint32Array;
  private readonly xs: Float64Array;
  private readonly ys: Float64Array;
  // Search state, reused between calls: lookups are synchronous.
  private qx = 0;
  private qy = 0;
  private kx = 0;
  private best = -1;
  private bestD2 = 0;

  constructor(members: number[], points: ReadonlyArray<PostalPoint>) {
    const order = [...members];
    // Each node's range is sorted on its axis and split at the middle element.
    const build = (left: number, right: number, axis: number): void => {
      if (right - left <= LEAF_SIZE) return;
      const key = axis === 0 ? (i: number) => points[i].lng : (i: number) => points[i].lat;
      const range = order.slice(left, right + 1).sort((a, b) => key(a) - key(b));
      for (let i = 0; i < range.length; i++) order[left + i] = range[i];
      const m = (left + right) >> 1;
      build(left, m - 1, 1 - axis);
      build(m + 1, right, 1 - axis);
    };
    build(0, order.length - 1, 0);
    this.order = Uint32Array.from(order);
    this.xs = Float64Array.from(order, (i) => points[i].lng);
    this.ys = Float64Array.from(order, (i) => points[i].lat);
  }

  /** Index (into the points array) of the nearest member within maxMeters, or -1. */
  nearest(lng: number, lat: number, maxMeters: number): number {
    this.qx = lng;
    this.qy = lat;
    this.kx = METERS_PER_DEGREE * Math.cos((lat * Math.PI) / 180);
    this.best = -1;
    this.bestD2 = maxMeters * maxMeters;
    if (this.order.length > 0) this.search(0, this.order.length - 1, 0);
    return this.best < 0 ? -1 : this.order[this.best];
  }

  private consider(i: number): void {
    const dx = (this.xs[i] - this.qx) * this.kx;
    const dy = (this.ys[i] - this.qy) * METERS_PER_DEGREE;
    const d2 = dx * dx + dy * dy;
    if (d2 < this.bestD2 || (d2 === this.bestD2 && this.best < 0)) {
      this.bestD2 = d2;
      this.best = i;
    }
  }

  private search(left: number, right: number, axis: number): void {
    if (right - left <= LEAF_SIZE) {
      for (let i = left; i <= right; i++) this.consider(i);
      return;
    }
    const m = (left + right) >> 1;
    this.consider(m);
    // Meters from the query to the splitting line: a lower bound for everything beyond it.
    const diff = axis === 0 ? (this.qx - this.xs[m]) * this.kx : (this.qy - this.ys[m]) * METERS_PER_DEGREE;
    const [first, second] = diff <= 0 ? [[left, m - 1], [m + 1, right]] : [[m + 1, right], [left, m - 1]];
    if (first[0] <= first[1]) this.search(first[0], first[1], 1 - axis);
    if (second[0] <= second[1] && diff * diff <= this.bestD2) this.search(second[0], second[1], 1 - axis);
  }
}

export class PostalCentroids {
  private readonly points: PostalPoint[];
  private readonly trees = new Map<string, ScopeTree>();

  constructor(points: ReadonlyArray<PostalPoint>) {
    this.points = points.filter((p) => Number.isFinite(p.lat) && Number.isFinite(p.lng) && Math.abs(p.lat) <= 90 && Math.abs(p.lng) <= 180);
    const members = new Map<string, number[]>();
    this.points.forEach((p, i) => {
      const list = members.get(p.scope);
      if (list === undefined) members.set(p.scope, [i]);
      else list.push(i);
    });
    for (const [scope, list] of members) this.trees.set(scope, new ScopeTree(list, this.points));
  }

  get size(): number {
    return this.points.length;
  }

  /**
   * Nearest point of `scope` within `maxMeters` of [lng, lat], by equirectangular
   * distance (exact enough at postal-code ranges). Does not wrap at ±180°: no
   * scope's points straddle it (the westernmost US ones, Guam's and the Northern
   * Marianas', are scopes of their own).
   */
  nearest(lng: number, lat: number, scope: string, maxMeters: number): PostalPoint | undefined {
    const i = this.trees.get(scope)?.nearest(lng, lat, maxMeters) ?? -1;
    return i < 0 ? undefined : this.points[i];
  }
}
