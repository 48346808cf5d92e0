// Where a search starts or ends: a vertex with the cost already spent to reach it (or still to spend
// after it) on the partial segment of a snapped point, and which option (direction) it stands for.
export interface SearchSeed {
  vertex: number;
  /** Seconds. */
  cost: number;
  /** Metres. */
  metres: number;
  /** Caller's tag: which snapped direction this seed is. */
  option: number;
}

export interface SearchResult {
  cost: number;
  metres: number;
  sourceOption: number;
  targetOption: number;
  /** Base arcs from the source seed's vertex to the target seed's vertex, in travel order. */
  arcs: number[];
}
