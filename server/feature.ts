// A feature (trips, webhooks, regions, imports…) plugs into the gateway through this one interface:
// its own collections, routes, steps in the track pipeline and background jobs. Its setup declares what
// it needs, as ports and config sections (its `Needs`); server/app builds those once and hands each
// feature only what it names. Features reach each other only through ports, never another feature's files:
// adding a feature touches no other feature's code. server/app/features.ts lists them.
import type { EventOutbox } from '../ports/event-outbox';
import type { Collection, DocBase } from '../ports/store';
import type { TrackStep } from './track-step';
import type { Route } from './http/route';
import type { Job } from './jobs/scheduler';

export interface FeatureInstance {
  routes?: Route[];
  /** Run in list order after geofencing, inside the user's atomic track step. */
  trackSteps?: TrackStep[];
  jobs?: Array<{ periodMs: number; job: Job }>;
  /** Called on shutdown, after the HTTP server stopped taking requests. */
  stop?(): Promise<void>;
  /** The event outbox this feature keeps (webhooks): the composition root hands it to the features that write events. */
  outbox?: EventOutbox;
  /** What the CLI, /metrics and tests reach of this feature's services (read back through the feature's own accessor). */
  runtime?: object;
}

/** The installed features' instances, by name: where a feature's own accessor finds its runtime. */
export interface InstalledFeatures {
  features: ReadonlyMap<string, FeatureInstance>;
}

/** The runtime of the feature named `name`, when it is installed and its runtime is a `Runtime`. */
export function installedRuntime<R extends object>(installed: InstalledFeatures, name: string, Runtime: abstract new (...args: never[]) => R): R | undefined {
  const runtime = installed.features.get(name)?.runtime;
  return runtime instanceof Runtime ? runtime : undefined;
}

export interface Feature<Needs> {
  name: string;
  /** The feature's own collections, declared at start-up: typed handles, as every Store call takes. */
  collections?: ReadonlyArray<Collection<DocBase>>;
  setup(needs: Needs): FeatureInstance | Promise<FeatureInstance>;
}
