// Whether this node can serve: the store answers a read within a deadline, and the region data that track
// and context read is loaded (the first readiness probe loads it, so a load balancer's probe also warms
// the node before traffic arrives). Liveness (GET /health) checks none of this: a slow database must not
// get healthy processes restarted.
import type { Store } from '../../../adapters/store/port';
import type { RegionLookup } from '../../../adapters/regions/port';

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

export class Readiness {
  private regionsLoaded = false;

  constructor(
    private readonly store: Store,
    private readonly regions: RegionLookup,
  ) {}

  async report(): Promise<ReadinessReport> {
    const store = await timed(async () => {
      // Any read goes to the database; an unknown id keeps it an index lookup.
      await withDeadline(this.store.projects.get('readiness-probe'), STORE_DEADLINE_MS, 'the store');
      return undefined;
    });
    const regions = await timed(async () => {
      if (!this.regionsLoaded) {
        this.regions.lookup([0, 0]);
        this.regionsLoaded = true;
      }
      return undefined;
    });
    const checks = { store, regions };
    return { ready: Object.values(checks).every((c) => c.ok), checks };
  }
}
