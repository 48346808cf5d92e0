// Response schemas of Waymark's own endpoints beside Radar's: webhooks and their delivery log, nightly
// geofence sync, project settings and keys, imported extracts, offline sync and address validation.
import {
  ANY, BOOLEAN, DATETIME, ID, INTEGER, LNG_LAT, NUMBER, OPEN_OBJECT, STRING,
  arrayOf, component, described, nullable, object, values, type Schema,
} from '../../http/response-schema';

export const WEBHOOK: Schema = component('Webhook', object({
  _id: ID, live: BOOLEAN, url: STRING, description: STRING, types: nullable(arrayOf(STRING)), mode: STRING, enabled: BOOLEAN,
  token: { type: 'string', description: 'the signing token' }, createdAt: DATETIME, updatedAt: DATETIME,
  status: values('active', 'queue-full', 'disabled', 'disabled-failing'), queueFullSince: DATETIME, disabledReason: values('failing'), disabledAt: DATETIME,
}, { optional: ['description', 'status', 'queueFullSince', 'disabledReason', 'disabledAt'] }));

export const WEBHOOK_QUEUE: Schema = component('WebhookQueue', object({
  pending: { type: 'integer', description: 'rows waiting for delivery (each one event, or one bundle in batch mode), counted up to countedTo' },
  dead: { type: 'integer', description: 'dead letters stored, counted up to countedTo' },
  countedTo: { type: 'integer', description: 'counts stop here: a count equal to it means at least that many' },
  oldestPendingAt: nullable(DATETIME), nextAttemptAt: nullable(DATETIME),
}));

export const DELIVERY: Schema = component('Delivery', object({
  _id: STRING, createdAt: DATETIME, webhookId: ID, outboxId: STRING, outcome: STRING, eventIds: arrayOf(STRING), attempt: INTEGER,
  status: nullable(INTEGER), latencyMs: NUMBER, error: STRING, url: STRING, nextAttemptAt: DATETIME,
}, { optional: ['error', 'nextAttemptAt'] }));

export const DEAD_LETTER: Schema = component('DeadLetter', object({
  _id: STRING, createdAt: DATETIME, webhookId: ID, eventIds: arrayOf(STRING), eventTypes: arrayOf(STRING), attempts: INTEGER,
  lastAttemptAt: DATETIME, lastStatus: nullable(INTEGER), lastError: STRING, deadAt: DATETIME, deadReason: STRING,
  payload: nullable({ type: 'object', description: 'the webhook body as it would have been sent (event and user); null when payloadDropped' }),
  payloadDropped: BOOLEAN,
}, { optional: ['lastAttemptAt', 'lastError', 'payloadDropped'] }));

const SYNC_ENVIRONMENT = object({
  environment: STRING, source: STRING, ok: BOOLEAN, stage: STRING, message: STRING, durationMs: NUMBER,
  bytes: INTEGER, dataRows: INTEGER, created: INTEGER, updated: INTEGER, errorCount: INTEGER,
  errors: arrayOf(object({ row: INTEGER, column: STRING, message: STRING }, { optional: ['column'] })),
}, { optional: ['stage', 'message', 'bytes', 'dataRows', 'created', 'updated', 'errorCount', 'errors'] });

export const SYNC_RUN: Schema = component('GeofenceSyncRun', object({
  _id: STRING, trigger: STRING, startedAt: DATETIME, finishedAt: DATETIME, status: STRING,
  environments: arrayOf(SYNC_ENVIRONMENT),
  mail: object({ to: arrayOf(STRING), sent: BOOLEAN, error: STRING }, { optional: ['error'] }),
}));

const NULLABLE_TEXT = nullable(STRING);
export const SYNC_SETTINGS: Schema = component('GeofenceSync', object({
  enabled: BOOLEAN, email: NULLABLE_TEXT, protocol: NULLABLE_TEXT, testUrl: NULLABLE_TEXT, liveUrl: NULLABLE_TEXT,
  bucketRegion: NULLABLE_TEXT, bucketName: NULLABLE_TEXT, testObjectKey: NULLABLE_TEXT, liveObjectKey: NULLABLE_TEXT,
  accessKeyId: NULLABLE_TEXT, secretAccessKeySet: BOOLEAN, schedule: STRING, nextRunAt: nullable(DATETIME),
  createdAt: nullable(DATETIME), updatedAt: nullable(DATETIME), lastRun: nullable(SYNC_RUN),
  liveHidden: { type: 'boolean', description: 'a test key sees that live settings exist, never what they are' },
}, { optional: ['liveHidden'] }));

export const IMPORT_RESULT: Schema = object({
  environment: STRING, ok: BOOLEAN, imported: INTEGER, created: INTEGER, updated: INTEGER, dataRows: INTEGER,
  errors: arrayOf(object({ row: INTEGER, column: STRING, message: STRING }, { optional: ['column'] })), errorCount: INTEGER,
});

export const PROJECT_SETTINGS: Schema = component('ProjectSettings', object({
  stopDetection: BOOLEAN, bufferEntries: BOOLEAN, bufferExits: BOOLEAN, dwellEvents: BOOLEAN, operatingHoursSuppression: BOOLEAN,
  tripApproachingThreshold: NUMBER, tripExpirationHours: NUMBER, places: BOOLEAN, regions: BOOLEAN, fraud: BOOLEAN, fraudBlocking: BOOLEAN,
  locationHistoryDays: NUMBER,
}));

const PLACE_FILTERS = object({ categories: arrayOf(STRING), chains: arrayOf(STRING), category: arrayOf(STRING), chain: arrayOf(STRING) }, { optional: ['categories', 'chains', 'category', 'chain'] });
/** Places settings (GET/PATCH /v1/settings): the caller's own mappings and metadata, keyed by chain slug. */
export const PLACES_SETTINGS: Schema = component('PlacesSettings', object({
  chainMetadata: { type: 'object', additionalProperties: OPEN_OBJECT },
  chainMappings: { type: 'object', additionalProperties: STRING },
  placeFilters: PLACE_FILTERS,
}, { optional: ['chainMetadata', 'chainMappings', 'placeFilters'] }));
export const PLACES_SETTINGS_TOP_LEVEL = {
  chainMetadata: { type: 'object', additionalProperties: OPEN_OBJECT },
  chainMappings: { type: 'object', additionalProperties: STRING },
  placeFilters: PLACE_FILTERS,
};

export const API_KEY: Schema = object({ key: STRING, live: BOOLEAN, kind: values('publishable', 'secret') });
/** A stored key as GET /v1/project/keys shows it: a secret key has only its prefix (`display`), no `key`. */
export const STORED_API_KEY: Schema = object(
  { key: STRING, live: BOOLEAN, kind: values('publishable', 'secret'), display: STRING, createdAt: DATETIME },
  { optional: ['key'] },
);

export const EXTRACT: Schema = component('Extract', object({
  name: STRING,
  source: object({ type: values('url', 'file'), host: STRING }, { optional: ['host'], description: 'the kind of source and, for a URL, its host (never its path or credentials)' }),
  importedAt: DATETIME, bbox: arrayOf(NUMBER),
  coverage: { ...arrayOf(NUMBER), description: 'the box the file says it covers (its PBF header\'s), else the nodes\' box' },
  stages: { type: 'object', description: 'per installed stage, its figures', additionalProperties: { type: 'object', additionalProperties: NUMBER } },
}, { optional: ['bbox', 'coverage', 'stages', 'source'] }));

export const ROAD: Schema = object({ coordinates: arrayOf(LNG_LAT), major: BOOLEAN });

/** A base map shape: its parts, each [x0, y0, dx1, dy1, …] in integers of 1/scale degree (first point absolute, then steps). */
export const BASEMAP_SHAPES: Schema = described(arrayOf(arrayOf(arrayOf(INTEGER))),
  'shapes, each a list of parts; a part is [x0, y0, dx1, dy1, …] in integers of 1/scale degree, its first point absolute and the rest steps from the one before; filled shapes\' parts are rings (open, filled even-odd), a waterway\'s parts are lines');
export const BASEMAP_LABEL: Schema = component('BasemapLabel', object({
  name: STRING, kind: values('city', 'town', 'village', 'suburb', 'neighbourhood', 'hamlet', 'water', 'park', 'road'), coordinates: LNG_LAT,
  angle: { ...NUMBER, description: 'roads only: degrees clockwise from east on a north-up map, -90 to 90, the road\'s direction at the label' },
}, { optional: ['angle'] }));

/** [longitude, latitude, count]: a grid cell of a crowded map view. */
const MAP_CELL: Schema = { type: 'array', items: { type: 'number' }, minItems: 3, maxItems: 3 };
const GEOFENCE_SKETCH: Schema = component('GeofenceSketch', object({
  _id: ID, tag: STRING, externalId: STRING, description: STRING, type: values('circle', 'polygon', 'isochrone'), enabled: BOOLEAN,
  center: LNG_LAT, radius: NUMBER, mode: STRING, ring: arrayOf(LNG_LAT), bbox: arrayOf(NUMBER),
}, { optional: ['tag', 'externalId', 'radius', 'mode', 'ring'] }));
const USER_POINT: Schema = object({ _id: ID, userId: nullable(STRING), deviceId: nullable(STRING), coordinates: LNG_LAT, updatedAt: DATETIME });
export const MAP_GEOFENCES: Schema = object({ total: INTEGER, shapes: arrayOf(GEOFENCE_SKETCH), cells: arrayOf(MAP_CELL) });
export const MAP_USERS: Schema = object({ total: INTEGER, cut: BOOLEAN, points: arrayOf(USER_POINT), cells: arrayOf(MAP_CELL) });
export const DATA_OVERVIEW: Schema = object({ count: INTEGER, bbox: nullable(arrayOf(NUMBER)) });

export const SYNC_REGION: Schema = object({ latitude: NUMBER, longitude: NUMBER, radius: NUMBER });

export const VALIDATED_ADDRESS: Schema = object({
  addressLabel: STRING, number: STRING, street: STRING, unit: STRING, city: STRING, stateCode: STRING, postalCode: STRING, plus4: STRING,
  countryCode: STRING, formattedAddress: STRING, county: STRING, latitude: NUMBER, longitude: NUMBER,
  metadata: object({ recordType: STRING }, { extra: ANY }),
}, { optional: ['addressLabel', 'number', 'street', 'unit', 'plus4', 'county', 'latitude', 'longitude', 'metadata'] });

export const VALIDATION_RESULT: Schema = object({
  verificationStatus: values('verified', 'partially verified', 'ambiguous', 'unverified'),
  analysis: arrayOf(STRING),
}, { optional: ['analysis'] });

export const FRAUD_OVERRIDE: Schema = object({ bypassed: BOOLEAN, blocked: BOOLEAN });
