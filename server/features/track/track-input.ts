// Body rules of POST /v1/track (spec: Track). Radar's SDKs send many more fields (see the fixtures'
// NOTES.md); those are accepted and ignored, never rejected.
import { BadRequest } from '../../http/errors';
import { readEnum } from '../../http/params';
import { datetime, field, flag, metadata, number, paramSpec, text } from '../../http/params/param-spec';
import type { DeviceType, TrackInput } from '../../../core/model/track-input';
import { MAX_USER_ID_LENGTH } from '../../../core/model/user';
import { readFraudHints } from '../../http/params/fraud-hints';
import { MAX_RANGED_BEACONS, readRangedBeacons } from '../../http/params/ranged-beacons';

const ID_TEXT = { maxLength: MAX_USER_ID_LENGTH };
const DEVICE_TYPES = ['iOS', 'Android', 'Web'] as const;

/** SDKs have sent lower-case device types over the years; normalise them. */
function readDeviceType(raw: unknown): DeviceType | undefined {
  if (typeof raw === 'string') {
    const match = DEVICE_TYPES.find((t) => t.toLowerCase() === raw.toLowerCase());
    if (match) return match;
  }
  return readEnum(raw, 'deviceType', DEVICE_TYPES);
}

function readTripOptions(raw: unknown): Record<string, unknown> | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new BadRequest('tripOptions', 'tripOptions must be a dictionary');
  return raw as Record<string, unknown>;
}

/** The body of POST /v1/track (and of each replayed update), read in this order; the document shows it. */
export const TRACK_PARAMS = paramSpec('body', {
  deviceId: text(ID_TEXT).required(),
  latitude: number({ min: -90, max: 90 }).required(),
  longitude: number({ min: -180, max: 180 }).required(),
  accuracy: number({ greaterThan: 0 }).required().describe('metres'),
  tripOptions: field(readTripOptions, { type: 'object', description: 'the trip to start or update with this update (Radar SDK form)' }),
  userId: text(ID_TEXT),
  foreground: flag(),
  stopped: flag(),
  description: text(),
  metadata: metadata(32),
  deviceType: field(readDeviceType, { type: 'string', enum: [...DEVICE_TYPES], description: 'case-insensitive' }),
  updatedAt: datetime().describe('when the device took the location; older than the user\'s last update → server time'),
  replayed: flag().default(false),
  deviceOS: text(),
  deviceMake: text(),
  deviceModel: text(),
  beacons: field(readRangedBeacons, { type: 'array', maxItems: MAX_RANGED_BEACONS, items: { type: 'object' }, description: 'the beacons the device ranged (ids of synced beacons)' }),
  // Read again together by readFraudHints below; declared here so they are validated and documented.
  mocked: flag(),
  compromised: flag(),
  sharing: flag(),
  verified: flag(),
  fraudPayload: field((raw) => raw, { description: 'a plain JSON object (or its text) with boolean mocked, compromised, sharing; anything else is ignored' }),
});

export function parseTrackInput(body: Record<string, unknown>): TrackInput {
  const v = TRACK_PARAMS.read(body);
  return {
    deviceId: v.deviceId,
    userId: v.userId,
    location: [v.longitude, v.latitude],
    accuracy: v.accuracy,
    foreground: v.foreground,
    stopped: v.stopped,
    description: v.description,
    metadata: v.metadata,
    deviceType: v.deviceType,
    updatedAt: v.updatedAt,
    replayed: v.replayed,
    deviceOS: v.deviceOS,
    deviceMake: v.deviceMake,
    deviceModel: v.deviceModel,
    tripOptions: v.tripOptions,
    beacons: v.beacons,
    fraudHints: readFraudHints(body),
  };
}
