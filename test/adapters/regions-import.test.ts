import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { boundaryFilePath, parseBoundaryFile } from '../../core/formats/boundaries/boundary-file';
import { createEmbeddedRegions } from '../../adapters/regions/embedded/embedded-regions';
import { regionId } from '../../adapters/regions/region-id';
import { importBoundaries } from '../../importers/boundaries/import-boundaries';
import { files, requires } from '../support/requires';

const REGIONS_FIXTURES = path.resolve(__dirname, '../../../shared/fixtures/regions');
const DMA_GEOJSON = path.join(REGIONS_FIXTURES, 'nielsen_dma_simplified.geojson');
const DMA_TOPOJSON = path.join(REGIONS_FIXTURES, 'nielsen_dma.topojson.json');
const DC_ZCTA = path.join(REGIONS_FIXTURES, 'zcta2010_dc.geojson');

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'wm-regions-'));
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

const writeGeoJson = (features: unknown[]): string => {
  const file = path.join(tmp, 'input.geojson');
  fs.writeFileSync(file, JSON.stringify({ type: 'FeatureCollection', features }));
  return file;
};
const square = (x0: number, y0: number, size: number): number[][] => [
  [x0, y0], [x0 + size, y0], [x0 + size, y0 + size], [x0, y0 + size], [x0, y0],
];
const polygonFeature = (properties: Record<string, unknown>, rings: number[][][]): unknown => ({
  type: 'Feature', properties, geometry: { type: 'Polygon', coordinates: rings },
});

describe('importBoundaries: input handling', () => {
  test('skips unusable features with a reason and imports the rest', async () => {
    const file = writeGeoJson([
      polygonFeature({ code: 'OK', name: 'Fine' }, [square(0, 0, 1)]),
      { type: 'Feature', properties: { code: 'L' }, geometry: { type: 'LineString', coordinates: [[0, 0], [1, 1]] } },
      polygonFeature({ name: 'No code' }, [square(0, 0, 1)]),
      polygonFeature({ code: 'FAR' }, [[[500000, 0], [500001, 0], [500001, 1], [500000, 0]]]),
      polygonFeature({ code: 'TINY' }, [[[0, 0], [1, 1], [0, 0]]]),
      { type: 'Feature', properties: { code: 'NOGEOM' }, geometry: null },
      'not a feature',
    ]);
    const result = await importBoundaries({ file, type: 'zone', dataDir: tmp });
    expect(result.imported).toBe(1);
    expect(result.skipped.map((s) => s.index)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(result.skipped[0].reason).toMatch(/LineString is not Polygon or MultiPolygon/);
    expect(result.skipped[1].reason).toMatch(/no code/);
    expect(result.skipped[2].reason).toMatch(/out of range/);
    expect(result.skipped[3].reason).toMatch(/fewer than 3/);
    expect(result.skipped[4].reason).toMatch(/no geometry/);
    expect(result.skipped[5].reason).toMatch(/not a GeoJSON Feature/);
  });

  test('normalises: closes rings, drops repeated positions, merges features sharing a code, name falls back to code', async () => {
    const file = writeGeoJson([
      polygonFeature({ zone_id: 7 }, [[[0, 0], [0, 0], [1, 0], [1, 1], [0, 1]]]),
      { type: 'Feature', properties: { zone_id: 7, label: 'Seven' }, geometry: { type: 'MultiPolygon', coordinates: [[square(5, 5, 1)]] } },
    ]);
    await importBoundaries({ file, type: 'zone', codeProperty: 'zone_id', dataDir: tmp });
    const written = parseBoundaryFile(fs.readFileSync(boundaryFilePath(tmp, 'zone'), 'utf8'), 'zone.json');
    expect(written.features).toHaveLength(1);
    expect(written.features[0].code).toBe('7');
    expect(written.features[0].name).toBe('7');
    expect(written.features[0].polygons).toEqual([[[[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]]], [square(5, 5, 1)]]);
  });

  test('reports progress up to the total', async () => {
    const features = Array.from({ length: 120 }, (_, i) => polygonFeature({ code: String(i) }, [square(i % 100, 0, 0.5)]));
    const calls: Array<[number, number]> = [];
    await importBoundaries({ file: writeGeoJson(features), type: 'zone', dataDir: tmp, onProgress: (d, t) => calls.push([d, t]) });
    expect(calls[calls.length - 1]).toEqual([120, 120]);
    expect(calls.every(([d, t], i) => t === 120 && (i === 0 || d > calls[i - 1][0]))).toBe(true);
  });

  test.each([
    ['a type that is not a safe name', { type: '../etc' }, /must be letters/],
    ['a file that is not JSON', { content: '{nope' }, /not JSON/],
    ['JSON that is not a FeatureCollection', { content: '{"type":"Feature"}' }, /neither a GeoJSON FeatureCollection nor a TopoJSON/],
  ])('rejects %s', async (_name, opts, message) => {
    const file = path.join(tmp, 'bad.json');
    fs.writeFileSync(file, 'content' in opts ? opts.content : '{"type":"FeatureCollection","features":[]}');
    await expect(importBoundaries({ file, type: 'type' in opts ? opts.type : 'zone', dataDir: tmp })).rejects.toThrow(message);
  });

  test('output bytes depend only on the input', async () => {
    const file = writeGeoJson([polygonFeature({ code: 'B' }, [square(1, 1, 1)]), polygonFeature({ code: 'A' }, [square(0, 0, 1)])]);
    await importBoundaries({ file, type: 'zone', dataDir: tmp });
    const first = fs.readFileSync(boundaryFilePath(tmp, 'zone'));
    await importBoundaries({ file, type: 'zone', dataDir: tmp });
    expect(fs.readFileSync(boundaryFilePath(tmp, 'zone')).equals(first)).toBe(true);
    expect(fs.readdirSync(path.dirname(boundaryFilePath(tmp, 'zone')))).toEqual(['zone.json']);
  });
});

describe('imported boundaries in the embedded adapter', () => {
  test('a custom type is looked up, holes respected, and reload picks up a re-import', async () => {
    const file = writeGeoJson([polygonFeature({ code: 'Z1', name: 'Zone one' }, [square(10, 10, 2), square(10.5, 10.5, 0.5)])]);
    await importBoundaries({ file, type: 'zone', dataDir: tmp });
    const regions = createEmbeddedRegions({ dataDir: tmp });
    expect(regions.lookup([10.2, 10.2]).zone).toEqual({ _id: regionId('zone', 'Z1'), type: 'zone', name: 'Zone one', code: 'Z1' });
    expect(regions.lookup([10.7, 10.7]).zone).toBeUndefined();
    expect(regions.stats()?.imported).toEqual({ zone: 1 });

    await importBoundaries({ file: writeGeoJson([polygonFeature({ code: 'Z2' }, [square(10, 10, 2)])]), type: 'zone', dataDir: tmp });
    expect(regions.lookup([10.2, 10.2]).zone?.code).toBe('Z1');
    regions.reload();
    expect(regions.lookup([10.2, 10.2]).zone?.code).toBe('Z2');
  });

  test('a broken boundary file is reported and the rest still load', async () => {
    await importBoundaries({ file: writeGeoJson([polygonFeature({ code: 'Z1' }, [square(10, 10, 2)])]), type: 'zone', dataDir: tmp });
    fs.writeFileSync(path.join(tmp, 'regions', 'broken.json'), '{"format":"something else"}');
    const regions = createEmbeddedRegions({ dataDir: tmp });
    expect(regions.lookup([10.2, 10.2]).zone?.code).toBe('Z1');
    expect(regions.stats()?.skippedFiles).toEqual([{ file: path.join(tmp, 'regions', 'broken.json'), reason: expect.stringMatching(/format/) }]);
  });
});

const withDma = requires('region import of Nielsen DMAs', files(DMA_GEOJSON, DMA_TOPOJSON));
withDma('Nielsen DMA fixtures (test-only data)', () => {
  test('the simplified GeoJSON imports all 211 markets', async () => {
    const result = await importBoundaries({ file: DMA_GEOJSON, type: 'dma', dataDir: tmp });
    expect(result).toEqual({ imported: 211, skipped: [] });
    const written = parseBoundaryFile(fs.readFileSync(boundaryFilePath(tmp, 'dma'), 'utf8'), 'dma.json');
    expect(written.features.find((f) => f.code === '501')?.name).toBe('New York, NY');
    // Its coordinates are a planar projection, not longitude/latitude (New York's market sits near 16,18):
    // the importer cannot tell, so lookups on it would be meaningless. The TopoJSON below is in degrees.
  });

  test.each([
    ['Times Square', 40.758, -73.9855, '501'],
    ['Milton, WA', 47.2513, -122.3149, '819'],
    ['San Diego', 32.7203, -117.1552, '825'],
    ['Kansas City, Kansas (a Missouri-named market)', 39.1142, -94.6275, '616'],
    ['Paris: no US market', 48.8566, 2.3522, undefined],
  ])('TopoJSON DMAs: %s', async (_name, lat, lng, code) => {
    const result = await importBoundaries({ file: DMA_TOPOJSON, type: 'dma', codeProperty: 'dma', nameProperty: 'dma1', dataDir: tmp });
    expect(result.imported).toBe(206);
    const regions = createEmbeddedRegions({ dataDir: tmp });
    const dma = regions.lookup([lng, lat]).dma;
    expect(dma?.code).toBe(code);
    if (code !== undefined) expect(dma).toMatchObject({ type: 'dma', _id: regionId('dma', code) });
  });
});

const withZcta = requires('region import of DC ZCTAs', files(DC_ZCTA));
withZcta('imported postal code polygons win over the bundled points', () => {
  test('DC ZCTA polygons: inside them the polygon answers; outside, the nearest-point rule', async () => {
    const result = await importBoundaries({ file: DC_ZCTA, type: 'postalCode', codeProperty: 'ZCTA5CE10', dataDir: tmp });
    expect(result.imported).toBe(53);
    const regions = createEmbeddedRegions({ dataDir: tmp });
    const bundledOnly = createEmbeddedRegions();
    // Lincoln Memorial: in ZCTA 20024 by polygon (2010); the nearest-point rule says otherwise.
    const lincoln: [number, number] = [-77.0502, 38.8893];
    expect(regions.lookup(lincoln).postalCode?.code).toBe('20024');
    expect(bundledOnly.lookup(lincoln).postalCode?.code).not.toBe('20024');
    // Arlington, VA: outside the imported layer, so the bundled rule applies.
    expect(regions.lookup([-77.0910, 38.8816]).postalCode).toEqual(bundledOnly.lookup([-77.0910, 38.8816]).postalCode);
  });
});
