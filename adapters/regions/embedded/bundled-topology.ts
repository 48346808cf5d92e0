import fs from 'node:fs';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import type { PolygonRings } from '../../../core/geo/banded-polygon';

export interface TopologyFeature {
  id: string | undefined;
  name: string | undefined;
  polygons: PolygonRings[];
}

/**
 * Reads a TopoJSON file shipped in an npm package (world-atlas, us-atlas) and returns
 * its polygon features. Read with fs rather than `import` so the compiler does not
 * type-check megabytes of JSON.
 */
export function readTopologyFeatures(moduleFile: string, objectName: string): TopologyFeature[] {
  const topology = JSON.parse(fs.readFileSync(require.resolve(moduleFile), 'utf8')) as Topology;
  const object = topology.objects[objectName];
  if (object === undefined || object.type !== 'GeometryCollection') {
    throw new Error(`${moduleFile} has no GeometryCollection named ${objectName}`);
  }
  const collection = feature(topology, object as GeometryCollection);
  const out: TopologyFeature[] = [];
  for (const f of collection.features) {
    const g = f.geometry;
    if (g === null) continue;
    const polygons = g.type === 'Polygon' ? [g.coordinates] : g.type === 'MultiPolygon' ? g.coordinates : [];
    if (polygons.length === 0) continue;
    const props = f.properties as { name?: unknown } | null;
    const name = props !== null && typeof props.name === 'string' ? props.name : undefined;
    out.push({ id: f.id === undefined ? undefined : String(f.id), name, polygons });
  }
  return out;
}
