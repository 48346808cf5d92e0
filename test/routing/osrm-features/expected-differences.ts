// Scenarios of OSRM's suite where Waymark deliberately answers otherwise, each with its reason (the same
// list, explained, is in docs/routing-profiles.md, "Where Waymark differs from OSRM"). Keyed by
// `<profile>/<file>:<line of the Scenario>`. A scenario listed here that starts passing fails the runner
// too, so the list stays true.
export const EXPECTED_DIFFERENCES: Readonly<Record<string, string>> = {
};
