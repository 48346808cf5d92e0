// Body rules of POST /v1/track (spec: Track). Radar's SDKs send many more fields (see the fixtures'
// NOTES.md); those are accepted and ignored, never rejected.
import { BadRequest } from '../../http/errors';
import { readBoolean, readDatetime, readEnum, readMetadata, readNumber, readString, required } from '../../http/params';
import type { LngLat, Metadata } from '../../engine/types';
import type { RangedBeacon } from '../../engine/beacons';
import type { FraudHints } from '../../engine/fraud';
import { readFraudHints } from '../../http/params/fraud-hints';
import { readRangedBeacons } from '../../http/params/ranged-beacons';

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

const ID_TEXT = { maxLength: 256 };
const DEVICE_TYPES = ['iOS', 'Android', 'Web'] as const;

/** SDKs have sent lower-case device types over the years; normalise them. */
function readDeviceType(raw: unknown): DeviceType | undefined {
  if (typeof raw === 'string') {
    const match = DEVICE_TYPES.find((t) => t.toLowerCase() === raw.toLowerCase());
    if (match) return match;
  }
  return readEnum(raw, 'deviceType', DEVICE_TYPES);
}

export function parseTrackInput(body: Record<string, unknown>): TrackInput {
  const deviceId = required(readString(body.deviceId, 'deviceId', ID_TEXT), 'deviceId');
  const latitude = required(readNumber(body.latitude, 'latitude', { min: -90, max: 90 }), 'latitude');
  const longitude = required(readNumber(body.longitude, 'longitude', { min: -180, max: 180 }), 'longitude');
  const accuracy = required(readNumber(body.accuracy, 'accuracy', { greaterThan: 0 }), 'accuracy');
  const trip = body.tripOptions;
  if (trip !== undefined && trip !== null && (typeof trip !== 'object' || Array.isArray(trip))) {
    throw new BadRequest('tripOptions', 'tripOptions must be a dictionary');
  }
  return {
    deviceId,
    userId: readString(body.userId, 'userId', ID_TEXT),
    location: [longitude, latitude],
    accuracy,
    foreground: readBoolean(body.foreground, 'foreground'),
    stopped: readBoolean(body.stopped, 'stopped'),
    description: readString(body.description, 'description'),
    metadata: readMetadata(body.metadata, 'metadata', 32),
    deviceType: readDeviceType(body.deviceType),
    updatedAt: readDatetime(body.updatedAt, 'updatedAt'),
    replayed: readBoolean(body.replayed, 'replayed') ?? false,
    deviceOS: readString(body.deviceOS, 'deviceOS'),
    deviceMake: readString(body.deviceMake, 'deviceMake'),
    deviceModel: readString(body.deviceModel, 'deviceModel'),
    tripOptions: (trip ?? undefined) as Record<string, unknown> | undefined,
    beacons: readRangedBeacons(body.beacons),
    fraudHints: readFraudHints(body),
  };
}
