// One deadline for a whole download (DNS, connect, redirects, body), also ended by the caller's signal
// (gateway shutdown). `aborted` rejects when either fires, for racing steps that take no signal.
import { SourceError } from '../../ports/geofence-sources';

export interface Deadline {
  signal: AbortSignal;
  aborted: Promise<never>;
  /** Clears the timer and the listener on the caller's signal; call in `finally`. */
  dispose(): void;
}

export function downloadDeadline(timeoutMs: number, outer?: AbortSignal): Deadline {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new SourceError(`the download did not finish within ${timeoutMs} ms`)), timeoutMs);
  const onOuterAbort = (): void => controller.abort(new SourceError('the download was stopped (gateway shutting down)'));
  outer?.addEventListener('abort', onOuterAbort, { once: true });
  const aborted = new Promise<never>((_, reject) => {
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
  });
  aborted.catch(() => undefined);
  return {
    signal: controller.signal,
    aborted,
    dispose: () => {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onOuterAbort);
    },
  };
}
