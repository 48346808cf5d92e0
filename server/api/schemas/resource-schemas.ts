// Response schemas of the resources the API returns (Radar's shapes, spec/interface-spec.md, with the
// fields Waymark adds), shared by the routes' documented responses in route-docs.ts. Closed objects: a
// field the server starts sending fails the HTTP tests until it is written here.
import {
  ANY, BOOLEAN, DATETIME, ID, INTEGER, LNG_LAT, METADATA, NUMBER, POINT, STRING,
  arrayOf, component, nullable, object, partial, values, type Schema,
} from '../../http/response-schema';

const POLYGON = component('Polygon', object({ type: { const: 'Polygon' }, coordinates: arrayOf(arrayOf(LNG_LAT)) }));
const GEOFENCE_TYPE = values('circle', 'polygon', 'isochrone');
const MODE = values('car', 'truck', 'foot', 'bike', 'motorbike');
const OPERATING_HOURS = component('OperatingHours', {
  type: 'object',
  description: 'day (Mon…Sun) → [open, close] pairs in the geofence\'s local time, "HH:mm"; close before open crosses midnight',
  propertyNames: { enum: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] },
  additionalProperties: arrayOf({ type: 'array', items: { type: 'string', pattern: '^\\d{2}:\\d{2}$' }, minItems: 2, maxItems: 2 }),
});

export const GEOFENCE: Schema = component('Geofence', object({
  _id: ID, live: BOOLEAN, tag: STRING, externalId: STRING, description: STRING, type: GEOFENCE_TYPE,
  geometry: POLYGON, geometryCenter: POINT,
  geometryRadius: { type: 'number', description: 'metres (circles; approximate for polygons) or minutes (isochrones)' },
  enabled: BOOLEAN, createdAt: DATETIME, updatedAt: DATETIME,
  mode: MODE, metadata: METADATA,
  userId: STRING,
  userIds: { type: 'string', description: 'comma-separated' },
  ip: { type: 'string', description: 'comma-separated addresses, a.b.c.* wildcards or CIDR ranges' },
  tripApproachingThreshold: NUMBER, dwellThreshold: NUMBER, stopDetection: BOOLEAN,
  operatingHours: OPERATING_HOURS,
  disableAfter: DATETIME, deleteAfter: DATETIME, placeId: STRING, address: STRING,
}, { optional: ['geometry', 'mode', 'metadata', 'userId', 'userIds', 'ip', 'tripApproachingThreshold', 'dwellThreshold', 'stopDetection', 'operatingHours', 'disableAfter', 'deleteAfter', 'placeId', 'address'] }));

/** A geofence as a user's `geofences` and context list it: no geometry. */
export const GEOFENCE_SUMMARY: Schema = component('GeofenceSummary', object({
  _id: ID, tag: STRING, externalId: STRING, description: STRING, type: GEOFENCE_TYPE,
  geometryCenter: POINT, geometryRadius: NUMBER, metadata: METADATA,
}, { optional: ['metadata'] }));

/** A geofence as an event carries it. */
const EVENT_GEOFENCE = component('EventGeofence', object({
  _id: ID, tag: STRING, externalId: STRING, description: STRING, type: GEOFENCE_TYPE, metadata: METADATA,
}, { optional: ['metadata', 'type'] }));

export const REGION: Schema = component('Region', object({
  // Radar's four, or a boundary type the operator imported (county, territory…): any name.
  _id: STRING, type: { type: 'string', description: 'country, state, dma, postalCode, or a boundary type the operator imported' },
  name: STRING, code: STRING, flag: STRING,
}, { optional: ['flag', '_id', 'type'] }));

export const CHAIN: Schema = component('Chain', object({ name: STRING, slug: STRING, externalId: STRING, metadata: METADATA, domain: STRING }, { optional: ['externalId', 'metadata', 'domain'] }));

export const PLACE: Schema = component('Place', object({
  _id: STRING, name: STRING, categories: arrayOf(STRING), chain: CHAIN, location: POINT,
  address: ANY, osmId: STRING, iataCode: STRING, group: STRING,
}, { optional: ['chain', 'address', 'osmId', 'iataCode', 'group'] }));

const BEACON_FIELDS = {
  _id: ID, type: values('ibeacon', 'eddystone'), uuid: STRING, major: STRING, minor: STRING, uid: STRING, instance: STRING,
  description: STRING, tag: STRING, externalId: STRING, enabled: BOOLEAN, metadata: METADATA,
};
const BEACON_OPTIONAL = ['uuid', 'major', 'minor', 'uid', 'instance', 'metadata'];

export const BEACON: Schema = component('Beacon', object({
  ...BEACON_FIELDS, live: BOOLEAN, geometry: POINT, createdAt: DATETIME, updatedAt: DATETIME,
}, { optional: [...BEACON_OPTIONAL, 'geometry'] }));

/** A beacon as a user's `beacons` and an event carry it. */
const USER_BEACON = component('UserBeacon', object(BEACON_FIELDS, { optional: BEACON_OPTIONAL }));

const LAST_AT = nullable(DATETIME);
export const FRAUD: Schema = component('Fraud', object({
  verified: BOOLEAN, passed: BOOLEAN, bypassed: BOOLEAN, blocked: BOOLEAN,
  mocked: BOOLEAN, jumped: BOOLEAN, compromised: BOOLEAN, inaccurate: BOOLEAN, proxy: BOOLEAN, sharing: BOOLEAN,
  lastMockedAt: LAST_AT, lastJumpedAt: LAST_AT, lastCompromisedAt: LAST_AT, lastInaccurateAt: LAST_AT, lastProxyAt: LAST_AT, lastSharingAt: LAST_AT,
}));

const ETA = object({ duration: { type: 'number', description: 'minutes' }, distance: { type: 'number', description: 'metres' } });
const TRIP_STATUS = values('pending', 'started', 'approaching', 'arrived', 'completed', 'canceled', 'expired');

const TRIP_FIELDS = {
  _id: ID, live: BOOLEAN, externalId: STRING, status: TRIP_STATUS, mode: MODE, metadata: METADATA,
  destinationGeofenceTag: STRING, destinationGeofenceExternalId: STRING, destinationLocation: POINT,
  eta: ETA, approachingThreshold: NUMBER, userId: STRING,
  scheduledArrivalAt: DATETIME, delay: object({ delayed: BOOLEAN, scheduledArrivalTimeDelay: { type: 'number', description: 'minutes' } }),
  startedAt: DATETIME, approachingAt: DATETIME, arrivedAt: DATETIME, completedAt: DATETIME, canceledAt: DATETIME, expiredAt: DATETIME,
  createdAt: DATETIME, updatedAt: DATETIME,
};
const TRIP_OPTIONAL = [
  'mode', 'metadata', 'destinationGeofenceTag', 'destinationGeofenceExternalId', 'destinationLocation', 'eta', 'approachingThreshold',
  'userId', 'scheduledArrivalAt', 'delay', 'startedAt', 'approachingAt', 'arrivedAt', 'completedAt', 'canceledAt', 'expiredAt',
];

/** A trip as users and events carry it. */
const TRIP_SUMMARY = component('TripSummary', object(TRIP_FIELDS, { optional: TRIP_OPTIONAL }));

export const TRIP: Schema = component('Trip', object({
  ...TRIP_FIELDS,
  user: object({ _id: ID, userId: STRING, deviceId: STRING, metadata: METADATA }, { optional: ['userId', 'deviceId', 'metadata'] }),
  locations: arrayOf(object({ type: { const: 'Point' }, coordinates: LNG_LAT, locationAccuracy: NUMBER, updatedAt: DATETIME }, { optional: ['locationAccuracy', 'updatedAt'] })),
}, { optional: [...TRIP_OPTIONAL, 'user', 'locations'] }));

export const USER: Schema = component('User', object({
  _id: ID, live: BOOLEAN, userId: STRING, deviceId: STRING, description: STRING, metadata: METADATA,
  location: POINT, locationAccuracy: NUMBER, foreground: BOOLEAN, stopped: BOOLEAN,
  deviceType: values('iOS', 'Android', 'Web'), deviceOS: STRING, deviceMake: STRING, deviceModel: STRING,
  ip: STRING, geofences: arrayOf(GEOFENCE_SUMMARY), segments: arrayOf(ANY), topChains: arrayOf(ANY),
  place: PLACE, country: REGION, state: REGION, dma: REGION, postalCode: REGION,
  beacons: arrayOf(USER_BEACON), trip: TRIP_SUMMARY, fraud: FRAUD,
  createdAt: DATETIME, updatedAt: DATETIME, actualUpdatedAt: DATETIME,
}, {
  optional: ['userId', 'description', 'metadata', 'location', 'locationAccuracy', 'foreground', 'stopped', 'deviceType', 'deviceOS', 'deviceMake', 'deviceModel',
    'ip', 'geofences', 'segments', 'topChains', 'place', 'country', 'state', 'dma', 'postalCode', 'beacons', 'trip', 'fraud', 'actualUpdatedAt'],
}));

export const EVENT: Schema = component('Event', object({
  _id: ID, type: STRING, live: BOOLEAN, createdAt: DATETIME, actualCreatedAt: DATETIME,
  user: partial({ _id: ID, userId: STRING, deviceId: STRING, metadata: METADATA }),
  location: POINT, locationAccuracy: NUMBER,
  confidence: values(1, 2, 3), duration: { type: 'number', description: 'minutes inside (exits)' },
  geofence: EVENT_GEOFENCE, place: PLACE, alternatePlaces: arrayOf(PLACE), region: REGION, beacon: USER_BEACON,
  trip: TRIP_SUMMARY, fraud: FRAUD, currentlyOperating: BOOLEAN,
  conversion: BOOLEAN, name: STRING, metadata: METADATA, revenue: NUMBER, verification: values(-1, 0, 1),
  verifiedAt: DATETIME, verifiedPlaceId: STRING, verifiedPlace: PLACE,
}, {
  optional: ['actualCreatedAt', 'user', 'location', 'locationAccuracy', 'confidence', 'duration', 'geofence', 'place', 'alternatePlaces', 'region',
    'beacon', 'trip', 'fraud', 'currentlyOperating', 'conversion', 'name', 'metadata', 'revenue', 'verification', 'verifiedAt', 'verifiedPlaceId', 'verifiedPlace'],
}));

const TIME_ZONE = component('TimeZone', object({ id: STRING, name: STRING, code: STRING, currentTime: STRING, utcOffset: INTEGER, dstOffset: INTEGER }));

export const ADDRESS: Schema = component('Address', object({
  latitude: NUMBER, longitude: NUMBER, geometry: POINT,
  country: STRING, countryCode: STRING, countryFlag: STRING, state: STRING, stateCode: STRING, county: STRING,
  city: STRING, borough: STRING, neighborhood: STRING, postalCode: STRING, number: STRING, street: STRING, unit: STRING,
  addressLabel: STRING, placeLabel: STRING, formattedAddress: STRING, layer: STRING,
  confidence: values('exact', 'interpolated', 'fallback'), distance: NUMBER, dmaCode: STRING, dma: STRING,
  timeZone: TIME_ZONE,
}, {
  optional: ['geometry', 'country', 'countryCode', 'countryFlag', 'state', 'stateCode', 'county', 'city', 'borough', 'neighborhood', 'postalCode',
    'number', 'street', 'unit', 'addressLabel', 'placeLabel', 'formattedAddress', 'layer', 'confidence', 'distance', 'dmaCode', 'dma', 'timeZone'],
}));

/** One entry of a user's location history (ours): GET /v1/users/:id/locations. */
export const LOCATION: Schema = component('Location', object({
  _id: ID, live: BOOLEAN, createdAt: { ...DATETIME, description: 'the update\'s time (a replayed update\'s recorded time)' },
  location: POINT, locationAccuracy: NUMBER, foreground: BOOLEAN, stopped: BOOLEAN, replayed: BOOLEAN,
  events: { ...arrayOf(STRING), description: 'the types of the events the update made' },
  expiresAt: { ...DATETIME, description: 'when the entry is deleted (locationHistoryDays after its time)' },
}, { optional: ['foreground', 'stopped', 'replayed', 'events'] }));
