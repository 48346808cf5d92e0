// The Places settings of an environment (GET/PATCH /v1/settings) as the Store keeps them: one document,
// its fields stored as given (their inner shape is the Places feature's, read leniently: places-settings.ts).
import type { DocBase } from './document';

export type PlacesSettingsField = 'chainMappings' | 'chainMetadata' | 'placeFilters';

export type PlacesSettingsDoc = DocBase & Partial<Record<PlacesSettingsField, Record<string, unknown>>>;
