// Which OSM objects the base map draws, and as what: water, parks and other green, woods, buildings,
// waterways, and the names written on the map.
import type { OsmTags } from '../../stage';
import { LABEL_KINDS, SHAPE_KINDS, type LabelKind, type ShapeKind } from '../../../../core/formats/basemap/basemap-layout';

const WATER_LANDUSE = new Set(['reservoir', 'basin']);
const WATER_WATERWAY = new Set(['riverbank', 'dock']);
const PARK_LEISURE = new Set(['park', 'garden', 'playground', 'golf_course', 'nature_reserve', 'recreation_ground', 'common', 'dog_park', 'pitch']);
const PARK_LANDUSE = new Set(['grass', 'meadow', 'recreation_ground', 'village_green', 'cemetery', 'allotments']);
const PARK_NATURAL = new Set(['grassland', 'heath']);
const WOOD_LANDUSE = new Set(['forest']);
const WOOD_NATURAL = new Set(['wood', 'scrub']);

/** The filled kind of a closed way or multipolygon, or undefined. */
export function areaKindOf(tags: OsmTags): ShapeKind | undefined {
  if (tags.natural === 'water' || WATER_LANDUSE.has(tags.landuse ?? '') || WATER_WATERWAY.has(tags.waterway ?? '')) return 'water';
  if (WOOD_LANDUSE.has(tags.landuse ?? '') || WOOD_NATURAL.has(tags.natural ?? '')) return 'wood';
  if (PARK_LEISURE.has(tags.leisure ?? '') || PARK_LANDUSE.has(tags.landuse ?? '') || PARK_NATURAL.has(tags.natural ?? '')) return 'park';
  if (tags.building !== undefined && tags.building !== 'no') return 'building';
  return undefined;
}

/** Least zoom of a waterway line (rivers from afar, streams close up), or undefined for one not drawn. */
export function waterwayZoomOf(tags: OsmTags): number | undefined {
  if (tags.natural === 'coastline') return 8;
  switch (tags.waterway) {
    case 'river': return 9;
    case 'canal': return 11;
    case 'stream': return 14;
    default: return undefined;
  }
}

const PLACE_ZOOM: Partial<Record<string, [LabelKind, number]>> = {
  city: ['city', 8],
  town: ['town', 10],
  village: ['village', 12],
  suburb: ['suburb', 12],
  neighbourhood: ['neighbourhood', 14],
  quarter: ['neighbourhood', 14],
  hamlet: ['hamlet', 14],
};

/** A settlement's name label and its least zoom, from place=*. */
export function placeLabelOf(tags: OsmTags): { kind: LabelKind; minZoom: number } | undefined {
  const found = tags.name ? PLACE_ZOOM[tags.place ?? ''] : undefined;
  return found ? { kind: found[0], minZoom: found[1] } : undefined;
}

const ROAD_LABEL_ZOOM: Partial<Record<string, number>> = { motorway: 13, trunk: 13, primary: 14, secondary: 15, tertiary: 16 };

/** A named major road's label zoom (written once per cell at a way's middle), or undefined. */
export function roadLabelZoomOf(tags: OsmTags): number | undefined {
  return tags.name ? ROAD_LABEL_ZOOM[tags.highway ?? ''] : undefined;
}

export const shapeCode = (kind: ShapeKind): number => SHAPE_KINDS.indexOf(kind);
export const labelCode = (kind: LabelKind): number => LABEL_KINDS.indexOf(kind);
