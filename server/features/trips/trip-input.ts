// Body and query rules of the trip endpoints (spec: Trips), and the lenient reading of the track
// body's `tripOptions`, which must never make a track update fail.
import { BadRequest } from '../../http/errors';
import { InputError } from '../../../core/input/input-error';
import { readBoolean, readDatetime, readEnum, readList, readMetadata, readNumber, readString, required } from '../../http/params';
import {
  INITIAL_STATUSES, REQUESTABLE_STATUSES, TRIP_STATUSES,
  type InitialStatus, type RequestableStatus, type TripStatus,
} from '../../../core/trips';
import type { Metadata } from '../../../core/types';
import { readAfterId, readBeforeId, readLimit, readOrder } from '../../api/list-query';
import { TRIP_MODES, type TripMode } from '../../../core/model/trip';

const ID_TEXT = { maxLength: 256 };
/** Trip metadata follows the geofence limit (the spec gives none for trips). */
const TRIP_METADATA_KEYS = 32;
/** A day: a larger "minutes before arrival" is a mistake, not a plan. */
const THRESHOLD = { min: 0, max: 1440 };

/** Fields a create and an update share; all optional. */
export interface TripFields {
  mode?: TripMode;
  destinationGeofenceTag?: string;
  destinationGeofenceExternalId?: string;
  /** Minutes. iOS sends it as a string. */
  approachingThreshold?: number;
  scheduledArrivalAt?: Date;
  metadata?: Metadata;
  userId?: string;
}

export interface CreateTripInput extends TripFields {
  externalId: string;
  status?: InitialStatus;
}

export interface UpdateTripInput extends TripFields {
  /** Absent: keep the trip's current status (the web SDK's updateTrip never sends one). */
  status?: RequestableStatus;
}

function readTripFields(body: Record<string, unknown>): TripFields {
  return {
    mode: readEnum(body.mode, 'mode', TRIP_MODES),
    destinationGeofenceTag: readString(body.destinationGeofenceTag, 'destinationGeofenceTag', ID_TEXT),
    destinationGeofenceExternalId: readString(body.destinationGeofenceExternalId, 'destinationGeofenceExternalId', ID_TEXT),
    approachingThreshold: readNumber(body.approachingThreshold, 'approachingThreshold', THRESHOLD),
    scheduledArrivalAt: readDatetime(body.scheduledArrivalAt, 'scheduledArrivalAt'),
    metadata: readMetadata(body.metadata, 'metadata', TRIP_METADATA_KEYS),
    userId: readString(body.userId, 'userId', ID_TEXT),
  };
}

export function parseCreateTrip(body: Record<string, unknown>): CreateTripInput {
  const externalId = required(readString(body.externalId, 'externalId', ID_TEXT), 'externalId');
  const status = readStatus(body.status, INITIAL_STATUSES, 'a trip is created pending or in an active status');
  return { externalId, ...readTripFields(body), status };
}

export function parseUpdateTrip(body: Record<string, unknown>): UpdateTripInput {
  const status = readStatus(body.status, REQUESTABLE_STATUSES, 'expired is set by the expiry job only');
  return { ...readTripFields(body), status };
}

function readStatus<T extends TripStatus>(raw: unknown, allowed: readonly T[], why: string): T | undefined {
  if (typeof raw === 'string' && (TRIP_STATUSES as readonly string[]).includes(raw) && !(allowed as readonly string[]).includes(raw)) {
    throw new BadRequest('status', `status must be one of ${allowed.join(', ')} (${why})`);
  }
  return readEnum(raw, 'status', allowed);
}

/** tripOptions as the SDKs send it in track bodies. */
export interface TripOptions extends TripFields {
  externalId: string;
}

/**
 * Reads `tripOptions` leniently: an unusable field is dropped, never an error (a bad option must not
 * cost the location update); without a usable externalId there are no options at all.
 */
export function readTripOptions(raw: Record<string, unknown> | undefined): TripOptions | undefined {
  if (!raw) return undefined;
  const lenient = <T>(read: () => T | undefined): T | undefined => {
    try {
      return read();
    } catch (err) {
      if (err instanceof InputError) return undefined;
      throw err;
    }
  };
  const externalId = lenient(() => readString(raw.externalId, 'externalId', ID_TEXT));
  if (externalId === undefined) return undefined;
  return {
    externalId,
    mode: lenient(() => readEnum(raw.mode, 'mode', TRIP_MODES)),
    destinationGeofenceTag: lenient(() => readString(raw.destinationGeofenceTag, 'destinationGeofenceTag', ID_TEXT)),
    destinationGeofenceExternalId: lenient(() => readString(raw.destinationGeofenceExternalId, 'destinationGeofenceExternalId', ID_TEXT)),
    approachingThreshold: lenient(() => readNumber(raw.approachingThreshold, 'approachingThreshold', THRESHOLD)),
    scheduledArrivalAt: lenient(() => readDatetime(raw.scheduledArrivalAt, 'scheduledArrivalAt')),
    metadata: lenient(() => readMetadata(raw.metadata, 'metadata', TRIP_METADATA_KEYS)),
  };
}

export interface ListTripsInput {
  statuses?: TripStatus[];
  destinationGeofenceTag?: string;
  destinationGeofenceExternalId?: string;
  externalIds?: string[];
  /** The user's service `_id` (spec); a userId is accepted too. */
  user?: string;
  includeLocations: boolean;
  createdAfter?: Date;
  createdBefore?: Date;
  updatedAfter?: Date;
  updatedBefore?: Date;
  sortBy: 'createdAt' | 'updatedAt';
  /** Newest first unless 'asc'. */
  order: 'asc' | 'desc';
  /** The tie-breaking half of the cursor (api/list-query.ts): newest first beside *Before, oldest first beside *After. */
  beforeId?: string;
  afterId?: string;
  delayed?: boolean;
  limit: number;
}

export function parseListTrips(query: Record<string, unknown>): ListTripsInput {
  const statuses = readList(query.status, 'status');
  for (const s of statuses ?? []) {
    if (!(TRIP_STATUSES as readonly string[]).includes(s)) {
      throw new BadRequest('status', `status must be a comma-separated list of ${TRIP_STATUSES.join(', ')} ("${s}" is not one)`);
    }
  }
  const sortBy = readEnum(query.sortBy, 'sortBy', ['createdAt', 'updatedAt'] as const) ?? 'updatedAt';
  return {
    statuses: statuses as TripStatus[] | undefined,
    destinationGeofenceTag: readString(query.destinationGeofenceTag, 'destinationGeofenceTag', ID_TEXT),
    destinationGeofenceExternalId: readString(query.destinationGeofenceExternalId, 'destinationGeofenceExternalId', ID_TEXT),
    externalIds: readList(query.externalId, 'externalId'),
    user: readString(query.userId, 'userId', ID_TEXT),
    includeLocations: readIncludeLocations(query),
    createdAfter: readDatetime(query.createdAfter, 'createdAfter'),
    createdBefore: readDatetime(query.createdBefore, 'createdBefore'),
    updatedAfter: readDatetime(query.updatedAfter, 'updatedAfter'),
    updatedBefore: readDatetime(query.updatedBefore, 'updatedBefore'),
    sortBy,
    order: readOrder(query),
    beforeId: readBeforeId(query, sortBy),
    afterId: readAfterId(query, sortBy),
    delayed: readBoolean(query.delayed, 'delayed'),
    limit: readLimit(query, 1000, 500),
  };
}

export function readIncludeLocations(query: Record<string, unknown>): boolean {
  return readBoolean(query.includeLocations, 'includeLocations') ?? false;
}
