// The fraud step of a track update (project setting `fraud`). Computes the fraud object of the spec
// for the update (engine/fraud/fraud-check.ts), keeps it on the user (`user.fraud`, which also carries
// the `last…At` datetimes from update to update), adds a `user.failed_fraud` event when the update
// fails, and holds the update back when the project blocks failing updates (held-update.ts).
// With the setting off the user has no `fraud` field (one kept from an "on" period is dropped).
import type { IpLocator } from '../../../ports/ip-locator';
import { checkFraud } from '../../../core/fraud';
import type { LngLat } from '../../../core/types';
import type { Logger } from '../../../ports/logger';
import type { TrackStep, TrackUpdate } from '../../track-step';
import type { UserDoc } from '../../../core/model/user';
import { holdBack } from './held-update';

export class FraudTrackStep implements TrackStep {
  constructor(
    private readonly ipLocator: IpLocator,
    private readonly logger: Logger,
  ) {}

  async run(update: TrackUpdate): Promise<void> {
    const { ctx, input, previous, user, at } = update;
    if (!ctx.settings.fraud) {
      delete user.fraud;
      return;
    }
    const override = previous?._fraudOverride ?? {};
    const fraud = checkFraud({
      at,
      location: input.location,
      accuracy: input.accuracy,
      previous: previousPosition(previous),
      previousFraud: previous?.fraud,
      mode: tripMode(previous, input.tripOptions),
      hints: input.fraudHints ?? {},
      proxy: this.proxy(ctx.ip),
      bypassed: override.bypassed === true,
      userBlocked: override.blocked === true,
      blocking: ctx.settings.fraudBlocking,
    });
    if (fraud.blocked) holdBack(update);
    user.fraud = fraud;
    if (!fraud.passed) {
      // The event shows where the device claimed to be, even when the user stays where it was.
      update.newEvent('user.failed_fraud', { location: { type: 'Point', coordinates: input.location }, locationAccuracy: input.accuracy, fraud: { ...fraud } });
    }
  }

  private proxy(ip: string): boolean {
    if (!this.ipLocator.isProxy) return false;
    try {
      return this.ipLocator.isProxy(ip);
    } catch (err) {
      // A damaged database must not fail every update: the flag is then unknown, reported as false.
      this.logger.warn('anonymous-IP lookup failed', { error: (err as Error).message });
      return false;
    }
  }
}

function previousPosition(previous: UserDoc | undefined): { location: LngLat; accuracy: number; at: Date } | undefined {
  if (!previous) return undefined;
  const at = new Date(previous.updatedAt);
  if (Number.isNaN(at.getTime())) return undefined;
  return { location: previous.location.coordinates, accuracy: previous.locationAccuracy, at };
}

/** The user's open trip's mode, else the mode the update's tripOptions ask for. */
function tripMode(previous: UserDoc | undefined, tripOptions: Record<string, unknown> | undefined): string | undefined {
  const tripMode = previous?.trip?.mode;
  if (typeof tripMode === 'string') return tripMode;
  return typeof tripOptions?.mode === 'string' ? tripOptions.mode : undefined;
}
