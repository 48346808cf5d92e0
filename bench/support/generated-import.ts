// Runs the routing import stage on a generated road network (generated-roads.ts) in the pipeline's pass
// order (relations, nodes into the node index, ways, finish) without writing or parsing an OSM file,
// and loads the result with the router's own loader. Progress steps are timed as the phases of finish,
// in wall and CPU seconds (the machine is shared: CPU time is the steadier figure).
import fs from 'node:fs';
import path from 'node:path';
import { NodeCoordinatesBuilder } from '../../importers/osm/node-coordinates';
import { RoutingStage } from '../../importers/osm/stages/routing/routing-stage';
import type { OsmWay, StageSummary } from '../../importers/osm/stage';
import { loadNetwork, readModeGraph, readNetwork, ROUTING_STAGE, type LoadedNetwork } from '../../adapters/router/embedded/network-loader';
import { ModeRouter } from '../../core/routing/mode-router';
import { SegmentIndex } from '../../core/routing/segment-index';
import { generateRoads, type GeneratedCounts } from './generated-roads';

export interface Phase {
  step: string;
  seconds: number;
  cpuSeconds: number;
}

export interface GeneratedImport {
  counts: GeneratedCounts;
  /** The stage's summary; with `carOnly`, only the car figures (turns, shortcuts) and bytes written. */
  summary: StageSummary;
  /** Generating and reading (relations, nodes, ways into the stage), then each progress step of finish. */
  phases: Phase[];
  seconds: number;
  cpuSeconds: number;
  /** Every mode's router (not with `carOnly`). */
  load(): LoadedNetwork;
  car(): ModeRouter;
}

export interface GeneratedOptions {
  /** Stop the stage once the car graph is written (the other three modes are not built). */
  carOnly?: boolean;
  onProgress?(step: string, done: number, total: number | undefined, phaseSeconds: number): void;
}

const now = () => Number(process.hrtime.bigint()) / 1e9;
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

/** `extractDir` receives the `routing/` folder. */
export async function importGenerated(side: number, seed: number, extractDir: string, options: GeneratedOptions = {}): Promise<GeneratedImport> {
  const started = now();
  const cpuStarted = cpu();
  const stage = new RoutingStage(options.carOnly ? ['car'] : undefined);
  const relations: Parameters<RoutingStage['relation']>[0][] = [];
  const ways: OsmWay[] = [];
  const builder = new NodeCoordinatesBuilder();
  // One generation: relations and ways are kept (their refs copied) and handed over in pass order.
  const counts = generateRoads(side, seed, {
    relation: (r) => relations.push(r),
    node: (n) => {
      builder.add(n.id, n.lon, n.lat);
      stage.node(n);
    },
    way: (w) => ways.push({ id: w.id, refs: Int32Array.from(w.refs as ArrayLike<number>), tags: w.tags }),
  });
  for (const r of relations) stage.relation(r);
  const bbox = builder.bbox() ?? [0, 0, 0, 0];
  const nodes = builder.freeze();
  for (const w of ways) stage.way(w, nodes);
  ways.length = 0;
  const phases: Phase[] = [{ step: 'generate + read', seconds: now() - started, cpuSeconds: cpu() - cpuStarted }];
  let current = 'prepare';
  let since = now();
  let cpuSince = cpu();
  const endPhase = () => phases.push({ step: current, seconds: now() - since, cpuSeconds: cpu() - cpuSince });
  const dir = path.join(extractDir, ROUTING_STAGE);
  fs.mkdirSync(dir, { recursive: true });
  const summary: StageSummary = await stage.finish({
    extract: 'generated',
    dir,
    nodes,
    // Not read by the routing stage.
    bounds: [-180, -90, 180, 90],
    releaseNodes: () => undefined,
    progress: (step, done, total) => {
      if (step !== current) {
        endPhase();
        current = step;
        since = now();
        cpuSince = cpu();
      }
      options.onProgress?.(step, done, total, now() - since);
    },
  });
  endPhase();
  const load = (): LoadedNetwork => {
    if (options.carOnly) throw new Error('only the car graph was built');
    return loadNetwork('generated', extractDir, bbox)!;
  };
  const car = (): ModeRouter => {
    if (!options.carOnly) return load().routers.car;
    const network = readNetwork(dir);
    return new ModeRouter(network, readModeGraph(dir, 'car'), new SegmentIndex(network), 'driving');
  };
  return { counts, summary, phases, seconds: now() - started, cpuSeconds: cpu() - cpuStarted, load, car };
}
