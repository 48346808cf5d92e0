// Where a search starts or ends: a vertex with the cost already spent to reach it (or still to spend
// after it) on the partial segment of a snapped point, and which option (direction) it stands for.
export interface SearchSeed {
  vertex: number;
  /** Seconds. */
  cost: number;
  /** Metres. */
  metres: number;
  /** Travel seconds: the cost without routing penalties (restricted-access entries). */
  seconds: number;
  /** Caller's tag: which snapped direction this seed is. */
  option: number;
}

export interface SearchResult {
  cost: number;
  metres: number;
  /** Travel seconds along the path found (its cost less routing penalties). */
  seconds: number;
  sourceOption: number;
  targetOption: number;
  /** Base arcs from the source seed's vertex to the target seed's vertex, in travel order. */
  arcs: number[];
}
