// Scenarios of OSRM's suite where Waymark deliberately answers otherwise, each with its reason (the same
// list, explained, is in docs/routing-profiles.md, "Where Waymark differs from OSRM"). Keyed by
// `<profile>/<file>:<line of the Scenario>`. A scenario listed here that starts passing fails the runner
// too, so the list stays true.
const SNAPPING_ANY = "sets OSRM's `snapping=any` query option (start on a private service road); Radar's API has no such option";

export const EXPECTED_DIFFERENCES: Readonly<Record<string, string>> = {
  'car/startpoint.feature:39': SNAPPING_ANY,
  'car/startpoint.feature:64': SNAPPING_ANY,
  'car/startpoint.feature:85': SNAPPING_ANY,
  'car/startpoint.feature:106': SNAPPING_ANY,
};
