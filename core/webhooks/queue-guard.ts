// What a webhook's queue says about the webhook, checked every few seconds (delivery-queue-caps.ts):
// a queue at its cap pauses queueing for the webhook (new events are dropped for it, counted) until the
// receiver has caught up below RESUME_SHARE of the cap; a head row that keeps failing for
// `disableAfterMs` disables the webhook, so a dead receiver stops costing disk and retries. Pure:
// the caller reads the queue and writes the decision.

/** Queueing resumes once the queue is back under this share of the cap: no flapping at the line. */
export const RESUME_SHARE = 0.9;

export interface QueueGuardState {
  /** Set while queueing is paused because the queue is full: when it began. */
  queueFullSince?: string;
  /** Set while the queue's head row has failed at least once and not been delivered since: when that was first seen. */
  failingSince?: string;
}

export interface QueueFacts {
  /** Pending rows, counted up to `cap` + 1. */
  queued: number;
  cap: number;
  /** The head row has been attempted and failed. */
  headFailing: boolean;
  now: Date;
  disableAfterMs: number;
}

export interface QueueGuardDecision extends QueueGuardState {
  /** Disable the webhook: it kept failing for `disableAfterMs`. */
  disable: boolean;
}

export function decideQueueGuard(state: QueueGuardState, facts: QueueFacts): QueueGuardDecision {
  const iso = facts.now.toISOString();
  let queueFullSince = state.queueFullSince;
  if (queueFullSince === undefined && facts.queued >= facts.cap) queueFullSince = iso;
  else if (queueFullSince !== undefined && facts.queued < facts.cap * RESUME_SHARE) queueFullSince = undefined;
  const failingSince = facts.headFailing ? (state.failingSince ?? iso) : undefined;
  const disable = failingSince !== undefined && facts.now.getTime() - Date.parse(failingSince) >= facts.disableAfterMs;
  return { queueFullSince, failingSince, disable };
}
