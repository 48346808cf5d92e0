// Violations of the import rules that existed when the rules were written (issue 34), named so that each
// can be removed: import-graph.test.ts fails on a new one and on a listed one that no longer occurs.

export const RULE_BREAKS_KNOWN: string[] = [];

export const FEATURE_IMPORTS_KNOWN: string[] = [];

/** Circles of files, type-only imports included. */
export const FILE_CYCLES_KNOWN: string[][] = [];

/** Circles between folder units (`core` is core's loose files: types.ts, geofence-shape.ts…). */
export const FOLDER_CYCLES_KNOWN: string[][] = [
  [
    'server', 'server/api', 'server/features/beacons', 'server/features/data', 'server/features/events',
    'server/features/fraud', 'server/features/geocode', 'server/features/geofence-import', 'server/features/geofences',
    'server/features/health', 'server/features/places', 'server/features/projects', 'server/features/regions',
    'server/features/routing', 'server/features/search', 'server/features/settings', 'server/features/sdk',
    'server/features/track', 'server/features/trips', 'server/features/users', 'server/features/webhooks', 'server/http',
  ],
];
