// Violations of the import rules that existed when the rules were written (issue 34), named so that each
// can be removed: import-graph.test.ts fails on a new one and on a listed one that no longer occurs.

export const RULE_BREAKS_KNOWN: string[] = [];

export const FEATURE_IMPORTS_KNOWN: string[] = [];

/** Circles of files, type-only imports included. */
export const FILE_CYCLES_KNOWN: string[][] = [];

/** Circles between folder units (`core` is core's loose files: types.ts, geofence-shape.ts…). */
export const FOLDER_CYCLES_KNOWN: string[][] = [];
