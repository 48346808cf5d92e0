// The stages every `waymark data import` runs, in order. Each entry makes a fresh stage for one
// import (stages keep state between the passes). Routing, geocoding, places and the base map add theirs here.
// Routing finishes last: its contraction is the import's largest working set, and the geocoding and
// places stages let their collected features go when they finish, so it runs without them in memory.
import { RoutingStage } from './stages/routing/routing-stage';
import type { ImportStage } from './stage';
import { GeocodingStage } from './stages/geocoding/geocoding-stage';
import { PlacesStage } from './stages/places/places-stage';
import { BasemapStage } from './stages/basemap/basemap-stage';

export const IMPORT_STAGES: ReadonlyArray<() => ImportStage> = [
  () => new GeocodingStage(),
  () => new PlacesStage(),
  () => new BasemapStage(),
  () => new RoutingStage(),
];
