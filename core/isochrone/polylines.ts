// Many polylines in one growable Float64Array ([lng, lat] pairs) with the index each one starts at:
// an isochrone's reached roads are hundreds of thousands of short lines on a region, and an array per
// point and per line made the garbage collector most of its time.
export class Polylines {
  coords = new Float64Array(1024);
  /** Points so far. */
  points = 0;
  /** First point of each line; line i runs to starts[i + 1] (or `points` for the last). */
  readonly starts: number[] = [];

  get count(): number {
    return this.starts.length;
  }

  startLine(): void {
    this.starts.push(this.points);
  }

  push(lng: number, lat: number): void {
    if (2 * this.points + 2 > this.coords.length) {
      const grown = new Float64Array(this.coords.length * 2);
      grown.set(this.coords);
      this.coords = grown;
    }
    this.coords[2 * this.points] = lng;
    this.coords[2 * this.points + 1] = lat;
    this.points++;
  }

  /** Index one past line i's last point. */
  end(i: number): number {
    return i + 1 < this.starts.length ? this.starts[i + 1] : this.points;
  }

  static from(lines: ReadonlyArray<ReadonlyArray<readonly [number, number]>>): Polylines {
    const out = new Polylines();
    for (const line of lines) {
      out.startLine();
      for (const [lng, lat] of line) out.push(lng, lat);
    }
    return out;
  }
}
