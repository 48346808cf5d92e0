// Runs the routing import stage on a generated road network (generated-roads.ts) in the pipeline's pass
// order (relations, nodes into the node index, ways, finish) without writing or parsing an OSM file,
// and loads the result with the router's own loader. Progress steps are timed as the phases of finish.
import fs from 'node:fs';
import path from 'node:path';
import { NodeCoordinatesBuilder } from '../../data/osm/node-coordinates';
import { RoutingStage } from '../../data/osm/routing/routing-stage';
import type { OsmWay, StageSummary } from '../../data/osm/stage';
import { loadNetwork, ROUTING_STAGE, type LoadedNetwork } from '../../gateway/api/routing/network-loader';
import { generateRoads, type GeneratedCounts } from './generated-roads';

export interface GeneratedImport {
  counts: GeneratedCounts;
  summary: StageSummary;
  /** Seconds: generating and reading (relations, nodes, ways into the stage), then each progress step of finish. */
  phases: Array<{ step: string; seconds: number }>;
  seconds: number;
  load(): LoadedNetwork;
}

const now = () => Number(process.hrtime.bigint()) / 1e9;

/** `extractDir` receives the `routing/` folder. */
export async function importGenerated(side: number, seed: number, extractDir: string, onProgress?: (step: string, done: number, total: number | undefined, phaseSeconds: number) => void): Promise<GeneratedImport> {
  const started = now();
  const stage = new RoutingStage();
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
  const phases: Array<{ step: string; seconds: number }> = [{ step: 'generate + read', seconds: now() - started }];
  let current = 'prepare';
  let since = now();
  const dir = path.join(extractDir, ROUTING_STAGE);
  fs.mkdirSync(dir, { recursive: true });
  const summary = await stage.finish({
    extract: 'generated',
    dir,
    nodes,
    progress: (step, done, total) => {
      const t = now();
      if (step !== current) {
        phases.push({ step: current, seconds: t - since });
        current = step;
        since = t;
      }
      onProgress?.(step, done, total, t - since);
    },
  });
  phases.push({ step: current, seconds: now() - since });
  return { counts, summary, phases, seconds: now() - started, load: () => loadNetwork('generated', extractDir, bbox)! };
}
