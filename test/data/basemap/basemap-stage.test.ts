// The base map stage through the real import pipeline on the east Baltimore extract: what it keeps,
// where a known park lies, which zooms see buildings, and the bounds of a view's answer.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runImport } from '../../../importers/osm/import-pipeline';
import { BasemapStage } from '../../../importers/osm/stages/basemap/basemap-stage';
import { BasemapFile } from '../../../core/formats/basemap/basemap-file';
import { basemapInView, type BasemapAnswer } from '../../../core/formats/basemap/basemap-query';
import { OSM, fixturesPresent } from '../../routing/support';

const FILE = path.join(OSM, 'us-md-baltimore-valhalla.osm.pbf');
const present = fixturesPresent('base map stage', FILE);
/** Inside Patterson Park (leisure=park, way 28281839), east of its pagoda. */
const PATTERSON_PARK: [number, number] = [-76.5795, 39.2895];
const AROUND_PARK = { west: -76.59, south: 39.285, east: -76.57, north: 39.295 };
const LIMITS = { maxPoints: 150_000, maxLabels: 2_000 };
/** The Northwest Harbor between Locust Point and Fells Point / Canton: sea, given only by coastline ways. */
const HARBOUR: [number, number] = [-76.595, 39.279];
/** Locust Point, across the harbour: land on the coastline's left. */
const LOCUST_POINT: [number, number] = [-76.6, 39.268];

/** Absolute [lng, lat] rings of an answer's shapes (parts are first point, then steps). */
function rings(answer: BasemapAnswer, kind: 'water' | 'park' | 'wood' | 'building'): Array<Array<[number, number]>> {
  return answer[kind].flatMap((shape) => shape.map((part) => {
    const out: Array<[number, number]> = [];
    let x = 0, y = 0;
    for (let i = 0; i < part.length; i += 2) {
      x += part[i];
      y += part[i + 1];
      out.push([x / answer.scale, y / answer.scale]);
    }
    return out;
  }));
}

/** Winding number of the rings around the point: the dashboard fills a kind's rings as one path, non-zero. */
function winding(all: Array<Array<[number, number]>>, [x, y]: [number, number]): number {
  let w = 0;
  for (const ring of all) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xj, yj] = ring[j], [xi, yi] = ring[i];
      const cross = (xi - xj) * (y - yj) - (x - xj) * (yi - yj);
      if (yj <= y && yi > y && cross > 0) w++;
      else if (yj > y && yi <= y && cross < 0) w--;
    }
  }
  return w;
}

function inside(ring: Array<[number, number]>, [x, y]: [number, number]): boolean {
  let hit = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i], [xj, yj] = ring[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) hit = !hit;
  }
  return hit;
}

(present ? describe : describe.skip)('base map stage', () => {
  let dataDir: string;
  let summary: Record<string, number | string>;
  let file: BasemapFile;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-basemap-'));
    const result = await runImport({ file: FILE, name: 'baltimore', dataDir, stages: [new BasemapStage()] });
    summary = result.manifest.stages.basemap;
    file = BasemapFile.open(path.join(dataDir, 'extracts', 'baltimore', 'basemap'));
  }, 120_000);
  afterAll(() => {
    file?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('keeps the extract\'s buildings, water, parks, woods and waterways (osmium counts: 1,731 building ways and 7 relations, 31 forests)', () => {
    expect(summary.building).toBeGreaterThanOrEqual(1731);
    expect(summary.building).toBeLessThanOrEqual(1738);
    expect(summary.wood).toBe(31);
    expect(summary.water).toBeGreaterThanOrEqual(6);
    expect(summary.park).toBeGreaterThanOrEqual(60);
    expect(summary.waterway).toBeGreaterThanOrEqual(11);
    expect(summary.multipolygons).toBeGreaterThanOrEqual(1);
    expect(file.header.version).toBe(2);
  });

  test('Patterson Park is a park shape around its own point, named there, with buildings only from zoom 15', () => {
    const near = basemapInView([file], AROUND_PARK, 16, LIMITS).answer;
    expect(rings(near, 'park').some((r) => inside(r, PATTERSON_PARK))).toBe(true);
    expect(rings(near, 'water').some((r) => inside(r, PATTERSON_PARK))).toBe(false);
    const label = near.labels.find((l) => l.name === 'Patterson Park')!;
    expect(label.kind).toBe('park');
    expect(Math.abs(label.coordinates[0] - PATTERSON_PARK[0])).toBeLessThan(0.006);
    expect(Math.abs(label.coordinates[1] - PATTERSON_PARK[1])).toBeLessThan(0.006);
    expect(near.building.length).toBeGreaterThan(100);
    expect(basemapInView([file], AROUND_PARK, 14, LIMITS).answer.building).toEqual([]);
    // Every building piece lies in the cells the box touches (0.01° cells), none from across the extract.
    const outside = rings(near, 'building').flat().filter(([x, y]) => x < -76.59 - 1e-6 || x > -76.56 + 1e-6 || y < 39.28 - 1e-6 || y > 39.30 + 1e-6);
    expect(outside).toEqual([]);
  });

  test('outer rings run counter-clockwise whatever way they were mapped (the dashboard fills them non-zero)', () => {
    const near = basemapInView([file], AROUND_PARK, 16, LIMITS).answer;
    const area = (r: Array<[number, number]>): number => r.reduce((sum, [x, y], i) => {
      const [px, py] = r[(i + r.length - 1) % r.length];
      return sum + (px * y - x * py);
    }, 0);
    // Single-ring shapes: a building's or a park's only ring is its outer ring.
    const outers = (['building', 'park'] as const).flatMap((k) => near[k].filter((shape) => shape.length === 1))
      .map((shape) => rings({ ...near, building: [shape], park: [], water: [], wood: [] } as BasemapAnswer, 'building')[0]);
    expect(outers.length).toBeGreaterThan(100);
    expect(outers.filter((r) => area(r) <= 0)).toEqual([]);
  });

  test('the harbour is water, made from the coastline ways; the land on their left is not', () => {
    expect(summary['sea polygons']).toBeGreaterThanOrEqual(1);
    for (const zoom of [12, 14, 16]) {
      const view = { west: -76.605, south: 39.262, east: -76.575, north: 39.292 };
      const water = rings(basemapInView([file], view, zoom, LIMITS).answer, 'water');
      expect({ zoom, harbour: winding(water, HARBOUR) !== 0 }).toEqual({ zoom, harbour: true });
      expect({ zoom, locustPoint: winding(water, LOCUST_POINT), park: winding(water, PATTERSON_PARK) }).toEqual({ zoom, locustPoint: 0, park: 0 });
    }
  });

  test('the low zoom band holds fewer, simplified shapes and the larger names only', () => {
    const whole = { west: -76.62, south: 39.22, east: -76.5, north: 39.35 };
    const low = basemapInView([file], whole, 12, LIMITS).answer;
    const mid = basemapInView([file], whole, 13, LIMITS).answer;
    const points = (a: BasemapAnswer): number => (['water', 'park', 'wood'] as const).reduce((n, k) => n + a[k].flat().reduce((m, p) => m + p.length / 2, 0), 0);
    expect(points(low)).toBeGreaterThan(100);
    expect(points(low)).toBeLessThan(points(mid) / 2);
    expect(low.labels.filter((l) => l.kind === 'neighbourhood' || l.kind === 'road')).toEqual([]);
    expect(basemapInView([file], whole, 14, LIMITS).answer.labels.some((l) => l.name === 'Fells Point')).toBe(true);
  });

  test('a view elsewhere reads nothing; an answer past its bound says cut and stays under it', () => {
    const paris = basemapInView([file], { west: 2.3, south: 48.8, east: 2.4, north: 48.9 }, 16, LIMITS);
    expect(paris.cut).toBe(false);
    expect(paris.answer.building.length + paris.answer.park.length + paris.answer.labels.length).toBe(0);
    const small = basemapInView([file], AROUND_PARK, 16, { maxPoints: 500, maxLabels: 3 });
    expect(small.cut).toBe(true);
    const kept = (['water', 'park', 'wood', 'building', 'waterway'] as const).reduce((n, k) => n + small.answer[k].flat().reduce((m, p) => m + p.length / 2, 0), 0);
    expect(kept).toBeLessThanOrEqual(500);
    expect(small.answer.labels.length).toBe(3);
  });

  test('a road\'s name lies along the road: east-west streets near 0 degrees, north-south ones near 90', () => {
    const whole = basemapInView([file], { west: -76.61, south: 39.26, east: -76.53, north: 39.31 }, 15, LIMITS).answer;
    const angleOf = (name: string): number[] => whole.labels.filter((l) => l.kind === 'road' && l.name === name).map((l) => l.angle!);
    // Baltimore's grid: Orleans, Fayette, Pratt and Fleet run east-west, Greenmount and Clinton north-south
    // (a name at a bend turns with it: Fayette's at -76.595 reads -17.8).
    for (const name of ['Orleans Street', 'East Fayette Street', 'East Pratt Street', 'Fleet Street']) {
      expect(angleOf(name).length).toBeGreaterThan(0);
      for (const a of angleOf(name)) expect(Math.abs(a)).toBeLessThan(20);
    }
    for (const name of ['Greenmount Avenue', 'South Clinton Street']) {
      expect(angleOf(name).length).toBeGreaterThan(0);
      for (const a of angleOf(name)) expect(90 - Math.abs(a)).toBeLessThan(15);
    }
    // Only roads carry one; every angle reads left to right.
    expect(whole.labels.filter((l) => l.kind !== 'road' && l.angle !== undefined)).toEqual([]);
    for (const l of whole.labels) if (l.angle !== undefined) expect(l.angle > -90 && l.angle <= 90).toBe(true);
  });

  test('a building across a cell line is cut on it, and the answer names the grid it was cut on', () => {
    const view = { west: -76.545, south: 39.255, east: -76.535, north: 39.262 };
    const answer = basemapInView([file], view, 16, LIMITS).answer;
    expect(answer.buildingGrid).toBe(0.01);
    // The two halves of the building at the -76.54 meridian (south of Canton) meet on it.
    const onLine = rings(answer, 'building').filter((r) => r.some(([x], i) => x === -76.54 && r[(i + 1) % r.length][0] === -76.54));
    expect(onLine.length).toBeGreaterThanOrEqual(2);
    expect(onLine.some((r) => r.every(([x]) => x <= -76.54))).toBe(true);
    expect(onLine.some((r) => r.every(([x]) => x >= -76.54))).toBe(true);
  });
});
