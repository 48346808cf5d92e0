// The contract between the OSM import pipeline (`waymark data import`) and its stages. The pipeline
// reads the extract (PBF, OSM XML, optionally bzip2/gzip) and hands each entity to every stage; each
// stage keeps only what it needs and writes its own files into its own folder of the staged extract.
// Routing, geocoding and places are stages of the same pass, as OSRM separates extract from contract.
//
// Passes, so that no stage has to hold the whole file:
//   1. relations, only when some stage defines `relation` (turn restrictions, boundaries and
//      multipolygons name their member ways before those ways are read);
//   2. nodes, then ways, in file order. Every node's coordinates are stored by the pipeline before the
//      first way reaches a stage, so `ctx.nodes` answers any way's node references.
//   3. `finish`, once per stage in pipeline order: build, write, and report counts.

/** OSM tags; a frozen object shared with no one else, safe to keep. */
export type OsmTags = Readonly<Record<string, string>>;

export interface OsmNode {
  id: number;
  lat: number;
  lon: number;
  /** Null for the (common) untagged node (readers report them; the pipeline hands stages tagged nodes only). */
  tags: OsmTags | null;
}

export interface OsmWay {
  id: number;
  /** Node ids in way order. Valid only during the call: copy what you keep. */
  refs: ArrayLike<number>;
  tags: OsmTags;
}

export type OsmMemberType = 'node' | 'way' | 'relation';

export interface OsmMember {
  type: OsmMemberType;
  ref: number;
  role: string;
}

export interface OsmRelation {
  id: number;
  members: readonly OsmMember[];
  tags: OsmTags;
}

/** Node coordinates by OSM id, held by the pipeline in typed arrays. */
export interface NodeCoordinates {
  /** Number of nodes stored. */
  readonly size: number;
  /** Dense index of a node id (0 … size-1), or -1 when the extract does not hold it. */
  indexOf(id: number): number;
  lonAt(index: number): number;
  latAt(index: number): number;
}

export interface StageContext {
  /** The extract's name (`waymark data import FILE --name NAME`). */
  readonly extract: string;
  /** This stage's own folder inside the staged extract; created by the pipeline, empty. */
  readonly dir: string;
  readonly nodes: NodeCoordinates;
  /**
   * The extract's box, [west, south, east, north] in degrees: the one its PBF header declares (where the
   * extract was cut; ways crossing it may run beyond), else the box of its nodes.
   */
  readonly bounds: readonly [number, number, number, number];
  /**
   * Says the stage is done with `nodes`: when no later stage will read them, the pipeline lets the index
   * go (16 bytes a node, 330 MiB at Baltimore ×20×20), so what the stage builds next (the routing
   * contractions) does not run beside it. Reading `nodes` afterwards throws.
   */
  releaseNodes(): void;
  /**
   * Report progress of `finish` (building, contracting, indexing…): counts, not percentages. `step`
   * names the phase in plain words (a new one restarts the rate and the estimate of time left);
   * `detail`, when given, replaces the counts shown after it (e.g. the state of each mode).
   */
  progress(step: string, done: number, total?: number, detail?: string): void;
  /**
   * Memory the stage may use for its largest working sets, bytes; beyond it, work goes one part at a
   * time and spills to files in `dir`. Undefined: no budget.
   */
  readonly memoryBudgetBytes?: number;
  /**
   * Aborted when the import is stopped (Ctrl-C, SIGTERM): a stage that runs work elsewhere (worker
   * threads) stops it at once, since the pipeline gives up on the stage without waiting for it.
   */
  readonly signal?: AbortSignal;
}

/** What a stage tells the summary at the end of an import: names and counts, e.g. { edges: 1203 }. */
export type StageSummary = Record<string, number | string>;

export interface ImportStage {
  /** Folder name and progress label: `routing`, `geocoding`, `places`. */
  readonly name: string;
  relation?(relation: OsmRelation): void;
  /** Tagged nodes only: an untagged node is a point of ways, in `ctx.nodes` when the first way arrives. */
  node?(node: OsmNode): void;
  /** `ctx.nodes` is complete when the first way arrives. */
  way?(way: OsmWay, nodes: NodeCoordinates): void;
  finish(ctx: StageContext): Promise<StageSummary>;
}
