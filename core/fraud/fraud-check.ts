// The fraud object of one track update: one pure function from (the update, what the SDK said, the
// user's previous trusted position and flags, the operator's overrides) to the flags Radar's API shows
// on `user.fraud`. No I/O: the proxy lookup and the SDK's hints are read by the caller.
import { haversineMeters } from '../geo/sphere';
import type { LngLat } from '../types';
import { INACCURATE_ABOVE_M, MIN_INTERVAL_S, maxSpeedFor } from './thresholds';

/** The flags that fail an update, each with its `last…At` datetime. */
export const FRAUD_FLAGS = ['mocked', 'jumped', 'compromised', 'inaccurate', 'proxy', 'sharing'] as const;
export type FraudFlag = (typeof FRAUD_FLAGS)[number];

type LastAtField = `last${Capitalize<FraudFlag>}At`;

export type FraudObject = {
  /** The SDK says it sent the update through its verified path (trackVerified). Not checked here. */
  verified: boolean;
  /** No flag raised, or the user is bypassed. */
  passed: boolean;
  /** The operator exempted this user from the checks. */
  bypassed: boolean;
  /** The update failed and was held back (the project blocks failing updates), or the user is blocked. */
  blocked: boolean;
} & Record<FraudFlag, boolean> & Record<LastAtField, string | null>;

/** What the device said about itself; absent means "not said". */
export interface FraudHints {
  mocked?: boolean;
  compromised?: boolean;
  sharing?: boolean;
  verified?: boolean;
}

export interface FraudCheckInput {
  at: Date;
  location: LngLat;
  accuracy: number;
  /** The user's last applied position, when there is one. */
  previous?: { location: LngLat; accuracy: number; at: Date };
  /** The user's fraud object from the previous update: carries the `last…At` datetimes. */
  previousFraud?: Partial<FraudObject>;
  /** Travel mode for the speed limit (trip mode), if known. */
  mode?: string;
  hints: FraudHints;
  /** The client address is a known proxy, VPN or Tor exit. */
  proxy: boolean;
  /** Operator overrides for this user. */
  bypassed: boolean;
  userBlocked: boolean;
  /** The project holds back updates that fail. */
  blocking: boolean;
}

export const LAST_AT_FIELD: Readonly<Record<FraudFlag, LastAtField>> = {
  mocked: 'lastMockedAt', jumped: 'lastJumpedAt', compromised: 'lastCompromisedAt',
  inaccurate: 'lastInaccurateAt', proxy: 'lastProxyAt', sharing: 'lastSharingAt',
};

/** Metres per second between the previous position and this one, accuracy taken off the distance. */
export function impliedSpeed(input: Pick<FraudCheckInput, 'at' | 'location' | 'accuracy' | 'previous'>): number {
  const { previous } = input;
  if (!previous) return 0;
  const distance = Math.max(0, haversineMeters(previous.location, input.location) - previous.accuracy - input.accuracy);
  const seconds = Math.max(MIN_INTERVAL_S, (input.at.getTime() - previous.at.getTime()) / 1000);
  return distance / seconds;
}

export function checkFraud(input: FraudCheckInput): FraudObject {
  const raised: Record<FraudFlag, boolean> = {
    mocked: input.hints.mocked === true,
    jumped: impliedSpeed(input) > maxSpeedFor(input.mode),
    compromised: input.hints.compromised === true,
    inaccurate: input.accuracy > INACCURATE_ABOVE_M,
    proxy: input.proxy,
    sharing: input.hints.sharing === true,
  };
  const failed = FRAUD_FLAGS.some((f) => raised[f]);
  const passed = input.bypassed || (!failed && !input.userBlocked);
  const out = {
    verified: input.hints.verified === true,
    passed,
    bypassed: input.bypassed,
    blocked: !input.bypassed && (input.userBlocked || (input.blocking && failed)),
    ...raised,
  } as FraudObject;
  const atIso = input.at.toISOString();
  for (const f of FRAUD_FLAGS) {
    const before = input.previousFraud?.[LAST_AT_FIELD[f]];
    out[LAST_AT_FIELD[f]] = raised[f] ? atIso : typeof before === 'string' ? before : null;
  }
  return out;
}
