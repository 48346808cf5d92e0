// Whether this node can serve: the store answers a read within a deadline, the imported road networks are
// read (they load in the background after the gateway listens), and the region data that track
// and context read is loaded (the first readiness probe loads it, so a load balancer's probe also warms
// the node before traffic arrives). Liveness (GET /health) checks none of this: a slow database must not
// get healthy processes restarted.
import type { Store } from '../../../ports/store';
import type { RegionLookup } from '../../../ports/regions';
import type { StoreFaults } from '../../http/store-faults';
import type { DiskProbe } from './disk-probe';

export interface CheckResult {
  ok: boolean;
  /** Why not, or a short fact when ok. */
  detail?: string;
  ms: number;
}

export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, CheckResult>;
}

/** How long the store may take to answer before the node is reported not ready. */
export const STORE_DEADLINE_MS = 2000;

function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

async function timed(run: () => Promise<string | undefined>): Promise<CheckResult> {
  const started = performance.now();
  try {
    const detail = await run();
    return { ok: true, ...(detail ? { detail } : {}), ms: Math.round(performance.now() - started) };
  } catch (err) {
    return { ok: false, detail: err instanceof Error ? err.message : String(err), ms: Math.round(performance.now() - started) };
  }
}

export interface WriteChecks {
  /** Store faults requests met (503s); writes count as failing until one of the ways below clears them. */
  faults: StoreFaults;
  /** The SQLite store's data directory, probed with a small write; absent for PostgreSQL. */
  probe?: DiskProbe;
}

/** What the router is still reading (Router.loading): the node is not ready while the road networks load. */
export interface RoutingLoad {
  loading?(): string[];
}

export class Readiness {
  private regionsLoaded = false;

  constructor(
    private readonly store: Store,
    private readonly regions: RegionLookup,
    private readonly writeChecks?: WriteChecks,
    private readonly routing?: RoutingLoad,
  ) {}

  async report(): Promise<ReadinessReport> {
    const readAtMs = Date.now();
    const store = await timed(async () => {
      // Any read goes to the database; an unknown id keeps it an index lookup.
      await withDeadline(this.store.projects.get('readiness-probe'), STORE_DEADLINE_MS, 'the store');
      return undefined;
    });
    const writes = this.writeChecks && (await timed(async () => this.checkWrites(this.writeChecks!, store.ok, readAtMs)));
    const regions = await timed(async () => {
      if (!this.regionsLoaded) {
        this.regions.lookup([0, 0]);
        this.regionsLoaded = true;
      }
      return undefined;
    });
    const routing = this.routing && (await timed(async () => {
      const loading = this.routing?.loading?.() ?? [];
      if (loading.length > 0) throw new Error(`reading ${loading.join(', ')}`);
      return undefined;
    }));
    const checks = { store, ...(writes ? { writes } : {}), regions, ...(routing ? { routing } : {}) };
    return { ready: Object.values(checks).every((c) => c.ok), checks };
  }

  /**
   * Throws while writes fail: the data directory's probe write fails, or requests met a store fault
   * that nothing has cleared since. A commit clears it (StoreFaults), and so does a probe of the same
   * kind that succeeds after it: a read for a lost connection, the disk probe for a full, read-only or
   * failing disk; a node out of its load balancer's rotation gets no writes that could show it recovered.
   */
  private checkWrites({ faults, probe }: WriteChecks, readOk: boolean, readAtMs: number): string | undefined {
    const disk = probe?.check();
    if (disk && !disk.ok) throw new Error(disk.detail);
    const fault = faults.failing();
    if (!fault) return undefined;
    const cleared = fault.fault === 'connection-lost' ? readOk && readAtMs > fault.atMs : disk !== undefined && disk.atMs > fault.atMs;
    if (cleared) return undefined;
    throw new Error(`writes are failing (${fault.fault}): ${fault.detail}`);
  }
}
