// The import runner: the passes described in stage.ts over one extract, into a staging folder that
// replaces `<dataDir>/extracts/<name>` only once every stage has finished and the manifest is written.
// Any failure (bad file, a stage's error, an abort) removes the staging folder and leaves the
// previous extract of that name serving.
import fs from 'node:fs';
import path from 'node:path';
import { EXTRACT_NAME, MANIFEST_FORMAT, MANIFEST_VERSION, extractsDir, type ExtractManifest } from '../../core/formats/extract-layout';
import { cleanLeftovers, commitExtract, lockExtract, stagingDir } from '../../core/formats/extract-folders';
import { ProgressStep, formatBytes, formatCount, processPeakRss, type ProgressEvent, type StepPlace, type StepTiming } from './import-progress';
import { NodeCoordinatesBuilder, type SortedNodeCoordinates } from './node-coordinates';
import { readOsm, type ReadResult } from './osm-reader';
import { OsmFormatError, type OsmVisitor } from './osm-visitor';
import type { ImportStage, NodeCoordinates, StageContext, StageSummary } from './stage';

export interface ImportOptions {
  /** The extract on disk; several files are read as one region (merged-osm-reader.ts). */
  file: string | readonly string[];
  /** What the manifest names as the source (the URL of a downloaded file); default `file`. */
  source?: string;
  name: string;
  dataDir: string;
  stages: readonly ImportStage[];
  signal?: AbortSignal;
  onProgress?(event: ProgressEvent): void;
  /** Memory the stages may use for their largest working sets (StageContext.memoryBudgetBytes). */
  memoryBudgetBytes?: number;
}

export interface ImportResult {
  name: string;
  dir: string;
  manifest: ExtractManifest;
  steps: StepTiming[];
  seconds: number;
  peakMemoryBytes: number;
}

/** An error of one stage, named so the operator knows whose. */
export class StageError extends Error {}

function stageCall<T>(stage: ImportStage, what: string, call: () => T): T {
  try {
    return call();
  } catch (err) {
    if (err instanceof OsmFormatError) throw err;
    throw new StageError(`stage ${stage.name} failed during ${what}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

export async function runImport(options: ImportOptions): Promise<ImportResult> {
  const { name, dataDir, stages, signal } = options;
  if (!EXTRACT_NAME.test(name)) throw new Error(`extract name ${JSON.stringify(name)} must be lowercase letters, digits, _ or - (at most 64, starting with a letter or digit)`);
  const seen = new Set<string>();
  for (const s of stages) {
    if (seen.has(s.name)) throw new Error(`two import stages are named ${s.name}`);
    seen.add(s.name);
  }
  const started = process.hrtime.bigint();
  fs.mkdirSync(extractsDir(dataDir), { recursive: true });
  cleanLeftovers(dataDir);
  const release = lockExtract(dataDir, name);
  const staging = stagingDir(dataDir, name);
  const steps: StepTiming[] = [];
  const wantsRelations = stages.filter((s) => s.relation);
  // Steps in order: the relation pass (when a stage wants relations), nodes and ways, then each stage's finish.
  const stepCount = (wantsRelations.length > 0 ? 1 : 0) + 1 + stages.length;
  const place = (): StepPlace => ({ step: steps.length + 1, steps: stepCount, importStarted: started });
  try {
    fs.rmSync(staging, { recursive: true, force: true });
    fs.mkdirSync(staging);
    for (const s of stages) fs.mkdirSync(path.join(staging, s.name));

    if (wantsRelations.length > 0) {
      const step = new ProgressStep('read relations', options.onProgress, place());
      const visitor: OsmVisitor = {
        relation: (r) => {
          for (const s of wantsRelations) stageCall(s, `relation ${r.id}`, () => s.relation!(r));
        },
      };
      const read = await readOsm(options.file, visitor, {
        signal,
        onProgress: (done, total, counts) => step.update(done, total, () => step.describe({ relations: counts.relations }), 'reading the relations'),
      });
      steps.push(step.finish(`${formatCount(read.relations)} relations`));
    }

    const reading = await readNodesAndWays(options, steps, place());
    const { read, bbox } = reading;
    // Held here only until the last stage says it is done with it (StageContext.releaseNodes).
    let nodes: NodeCoordinates | null = reading.nodes;
    reading.nodes = null;
    const summaries: Record<string, StageSummary> = {};
    for (const [at, s] of stages.entries()) {
      await signalsHeard();
      if (signal?.aborted) throw signal.reason;
      const step = new ProgressStep(s.name, options.onProgress, place());
      const last = at === stages.length - 1;
      const ctx: StageContext = {
        extract: name,
        dir: path.join(staging, s.name),
        get nodes(): NodeCoordinates {
          if (nodes === null) throw new Error(`stage ${s.name} read the node index after releasing it`);
          return nodes;
        },
        releaseNodes: () => {
          if (last) nodes = null;
        },
        bounds: read.bounds ?? bbox,
        memoryBudgetBytes: options.memoryBudgetBytes,
        signal,
        progress: (what: string, done: number, total?: number, detail?: string) =>
          step.update(done, total, undefined, what, detail),
      };
      try {
        summaries[s.name] = await untilAborted(s.finish(ctx), signal);
      } catch (err) {
        if (signal?.aborted && err === signal.reason) throw err;
        throw new StageError(`stage ${s.name} failed: ${err instanceof Error ? err.message : String(err)}`);
      }
      steps.push(step.finish(Object.entries(summaries[s.name]).map(([k, v]) => `${typeof v === 'number' ? formatCount(v) : v} ${k}`).join(', ') || 'done'));
    }
    await signalsHeard();
    if (signal?.aborted) throw signal.reason;

    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const peak = processPeakRss();
    const manifest: ExtractManifest = {
      format: MANIFEST_FORMAT,
      version: MANIFEST_VERSION,
      name,
      source: options.source ?? sourceOf(options.file),
      importedAt: new Date().toISOString(),
      bbox,
      ...(read.bounds ? { coverage: [...read.bounds] as [number, number, number, number] } : {}),
      stages: summaries,
      import: {
        format: read.format, compression: read.compression, nodes: read.nodes, ways: read.ways, relations: read.relations,
        seconds: Math.round(seconds * 1000) / 1000, peakMemoryBytes: peak,
      },
    };
    const dir = commitExtract(dataDir, staging, manifest);
    return { name, dir, manifest, steps, seconds, peakMemoryBytes: peak };
  } catch (err) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw err;
  } finally {
    release();
  }
}

/**
 * Lets the event loop turn once: a stage that works on this thread without awaiting anything (a small
 * extract's contraction, geocoding) keeps signal handlers from running, and without this turn a Ctrl-C
 * during it would be heard only after the extract was committed.
 */
function signalsHeard(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * A stage's work, given up when the import is aborted: a stage awaiting its worker threads (the routing
 * contraction) does not look at the signal, and the operator's Ctrl-C or a service stop must not wait
 * minutes for it. The staging folder is removed by the caller; the command's exit ends the workers.
 */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return work;
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => {
      // What the abandoned work still says (a failure writing into the removed folder) is of no interest.
      work.catch(() => undefined);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

function sourceOf(file: string | readonly string[]): string {
  return (typeof file === 'string' ? [file] : file).map((f) => path.resolve(f)).join(' + ');
}

async function readNodesAndWays(
  options: ImportOptions,
  steps: StepTiming[],
  place: StepPlace,
): Promise<{ read: ReadResult; nodes: NodeCoordinates | null; bbox: [number, number, number, number] }> {
  const { stages } = options;
  const nodeStages = stages.filter((s) => s.node);
  const wayStages = stages.filter((s) => s.way);
  const builder = new NodeCoordinatesBuilder();
  const step = new ProgressStep('read nodes and ways', options.onProgress, place);
  let frozen: SortedNodeCoordinates | null = null;
  let bbox: [number, number, number, number] | null = null;
  const freeze = (): SortedNodeCoordinates => {
    // Sorting the index of a region's nodes takes seconds: said before, not after.
    const size = builder.size;
    step.update(0, 6, `${formatCount(size)} nodes`, 'sorting the node index');
    bbox = builder.bbox();
    frozen = builder.freeze((done, total) => step.update(done, total, `${formatCount(size)} nodes, part ${done} of ${total}`, 'sorting the node index'));
    return frozen;
  };
  const visitor: OsmVisitor = {
    node: (id, lon, lat, tags) => {
      if (frozen !== null) throw new OsmFormatError(`the file is not sorted: node ${id} comes after the first way (sort it with "osmium sort")`);
      if (!(lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180)) throw new OsmFormatError(`node ${id} has coordinates out of range (${lat}, ${lon})`);
      builder.add(id, lon, lat);
      // Stages see tagged nodes only (stage.ts): no object for each of the region's millions of way points.
      if (tags !== null && nodeStages.length > 0) {
        const node = { id, lon, lat, tags };
        for (const s of nodeStages) stageCall(s, `node ${id}`, () => s.node!(node));
      }
    },
    way: (way) => {
      const nodes = frozen ?? freeze();
      for (const s of wayStages) stageCall(s, `way ${way.id}`, () => s.way!(way, nodes));
    },
    // Only counted here (the summary's figure); stages had them in their own pass.
    relation: () => undefined,
  };
  const read = await readOsm(options.file, visitor, {
    signal: options.signal,
    onProgress: (done, total, counts) => step.update(done, total, () => step.describe({ nodes: counts.nodes, ways: counts.ways }), 'reading nodes and ways'),
  });
  const nodes: SortedNodeCoordinates = frozen ?? freeze();
  if (nodes.size === 0 || bbox === null) throw new OsmFormatError(`${sourceOf(options.file)} holds no nodes: nothing to import`);
  steps.push(step.finish(`${formatCount(read.nodes)} nodes, ${formatCount(read.ways)} ways; node index ${formatBytes(nodes.bytes)}`));
  return { read, nodes, bbox };
}
