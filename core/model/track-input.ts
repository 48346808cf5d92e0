// One track update as the gateway reads it from POST /v1/track (track-input.ts parses the body into it):
// what the track service and every feature step of the pipeline see of the request.
import type { RangedBeacon } from '../beacons';
import type { FraudHints } from '../fraud';
import type { LngLat, Metadata } from '../types';

export type DeviceType = 'iOS' | 'Android' | 'Web';

export interface TrackInput {
  deviceId: string;
  userId?: string;
  location: LngLat;
  accuracy: number;
  foreground?: boolean;
  stopped?: boolean;
  description?: string;
  metadata?: Metadata;
  deviceType?: DeviceType;
  updatedAt?: Date;
  replayed: boolean;
  deviceOS?: string;
  deviceMake?: string;
  deviceModel?: string;
  /** Raw `tripOptions` as the SDKs send it; the trips feature reads it. */
  tripOptions?: Record<string, unknown>;
  /** The beacons the device ranged; undefined when the body has no list (it did not range). */
  beacons?: RangedBeacon[];
  /** What the SDK said about the device (mocked, verified, fraudPayload…); the fraud feature reads it. */
  fraudHints?: FraudHints;
}
