import { usStateByFips } from '../../../core/facts/us-states';
import type { Region } from '../../../ports/regions';
import { regionId } from '../region-id';
import { readTopologyFeatures } from './bundled-topology';
import { PolygonLayer, type LayerEntry } from './polygon-layer';

/** US Census cartographic boundaries (1:10,000,000) from us-atlas. */
export const US_STATES_TOPOLOGY = 'us-atlas/states-10m.json';

export function usStateRegion(code: string, name: string): Region {
  return Object.freeze({ _id: regionId('state', code), type: 'state', name, code });
}

/** The 50 states and DC. Territories are left out: they are countries of their own (PR, GU, ...). */
export function loadUsStateLayer(): PolygonLayer<Region> {
  const entries: Array<LayerEntry<Region>> = [];
  for (const f of readTopologyFeatures(US_STATES_TOPOLOGY, 'states')) {
    const fact = f.id === undefined ? undefined : usStateByFips(f.id);
    if (fact === undefined || fact.territory) continue;
    entries.push({ value: usStateRegion(fact.code, fact.name), polygons: f.polygons });
  }
  return new PolygonLayer(entries);
}
