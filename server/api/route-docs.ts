// Summaries and response schemas of the v1 routes for the OpenAPI document (http/openapi.ts), keyed
// "METHOD /path" exactly as the route table says; a test fails on a key that matches no route, so this
// table cannot outlive a route. The HTTP tests validate every answer they receive against what is written
// here (test/support/openapi-check.ts). Parameters belong on the route itself (`input`, a param spec its
// handler reads with); the `params` left below are those of routes not yet moved to a spec.
import {
  datetimeParam, enumParam, listParam, numberParam, objectParam, stringParam,
} from '../http/params';
import type { RouteDoc } from '../http/route';
import { BOOLEAN, INTEGER, NUMBER, STRING, arrayOf, nullable, object, type ResponseDoc, type Schema } from '../http/response-schema';
import {
  API_KEY, STORED_API_KEY, DATA_OVERVIEW, DEAD_LETTER, WEBHOOK_QUEUE, MAP_GEOFENCES, MAP_USERS, DELIVERY, EXTRACT, FRAUD_OVERRIDE, IMPORT_RESULT, PLACES_SETTINGS, PLACES_SETTINGS_TOP_LEVEL, PROJECT_SETTINGS, ROAD, BASEMAP_SHAPES, BASEMAP_LABEL,
  SYNC_REGION, SYNC_RUN, SYNC_SETTINGS, VALIDATED_ADDRESS, VALIDATION_RESULT, WEBHOOK,
} from './schemas/admin-schemas';
import { ADDRESS, BEACON, EVENT, GEOFENCE, GEOFENCE_SUMMARY, LOCATION, PLACE, REGION, TRIP, USER } from './schemas/resource-schemas';
import {
  DIRECTIONS_ROUTE, DISTANCE_ROUTES, LAT_LNG, MATCHED_POINT, MATCH_GEOMETRY, MATRIX_CELL, MEASURE_SCHEMA, OPTIMIZED_ROUTE, ROAD_ATTRIBUTE,
} from './schemas/routing-schemas';

const near = stringParam('near', {}, { required: true, description: '"latitude,longitude"' });
const TRIP_STATUSES = ['pending', 'started', 'approaching', 'arrived', 'completed', 'canceled'];
const tripFields = [
  enumParam('mode', ['foot', 'bike', 'car']),
  stringParam('destinationGeofenceTag'),
  stringParam('destinationGeofenceExternalId'),
  numberParam('approachingThreshold', { min: 0, max: 1440 }, { description: 'minutes' }),
  datetimeParam('scheduledArrivalAt'),
  objectParam('metadata', { description: 'up to 32 keys; string, number or boolean values' }),
  stringParam('userId'),
];


/** A success body of these fields beside meta (all present unless named optional). */
function replies(body: Record<string, Schema>, more: Omit<ResponseDoc, 'body'> = {}): ResponseDoc {
  return { body, ...more };
}
const LIST_META = { meta: { hasMore: BOOLEAN } };
/** The paging parameters of the lists read without a param spec (beacons, trips, deliveries). */
const PAGING = [
  enumParam('order', ['asc', 'desc'], { description: 'desc (default): newest first, next page by *Before + beforeId; asc: oldest first, next page by *After + afterId' }),
  stringParam('beforeId', { maxLength: 64 }, { description: 'newest first, beside createdBefore/updatedBefore: the last item\'s _id' }),
  stringParam('afterId', { maxLength: 64 }, { description: 'with order=asc, beside createdAfter/updatedAfter: the last item\'s _id' }),
];
/** Saving sync settings runs the sync once when it is enabled (runStarted; run when it finished in time). */
const SYNC_SAVED = replies({ sync: SYNC_SETTINGS, runStarted: BOOLEAN, run: nullable(SYNC_RUN) }, { optional: ['run'] });
/** Answers of routes whose reply is the envelope alone. */
const NOTHING: ResponseDoc = { body: {} };
/** Routing answers carry a warning in meta when they are estimates (docs/routing.md). */
const ROUTING_META = { meta: { warning: STRING }, errors: [503] };
const CONTEXT_FIELDS = {
  live: BOOLEAN, geofences: arrayOf(GEOFENCE_SUMMARY), place: PLACE, country: REGION, state: REGION, dma: REGION, postalCode: REGION,
};
// Boundary types the operator imported beyond Radar's four appear under their own names (county…).
const CONTEXT = object(CONTEXT_FIELDS, { optional: ['place', 'country', 'state', 'dma', 'postalCode'], extra: REGION });
const TRACK_RESULT = object({
  meta: object({ code: INTEGER, param: STRING, message: STRING, type: STRING }, { optional: ['param', 'message', 'type'] }),
  events: arrayOf(EVENT), user: USER,
}, { optional: ['events', 'user'] });

export const ROUTE_DOCS: Record<string, RouteDoc> = {
  'POST /v1/track': {
    summary: 'Track a location update: geofence, region and trip events, the user',
    response: replies({ events: arrayOf(EVENT), user: USER }, { errors: [503] }),
  },
  'POST /v1/track/replay': {
    summary: 'Replay offline location updates in order',
    description: 'Each update is answered on its own in results, with its own meta (a bad update is a 400 there, not of the whole batch).',
    response: replies({ results: arrayOf(TRACK_RESULT) }, { errors: [503] }),
  },
  'GET /v1/context': {
    summary: 'Geofences and regions at a point, without tracking',
    description: 'The context is also repeated at the top level of the answer, as some SDK versions read it there.',
    response: replies({ context: CONTEXT, ...CONTEXT_FIELDS }, { optional: Object.keys(CONTEXT_FIELDS), extra: REGION }),
  },
  'GET /v1/config': { summary: 'SDK configuration for the key\'s project', response: NOTHING },
  'GET /v1/events': { summary: 'List events', response: replies({ events: arrayOf(EVENT) }, LIST_META) },
  'GET /v1/events/:id': { summary: 'Get an event', response: replies({ event: EVENT }) },
  'DELETE /v1/events/:id': { summary: 'Delete an event', response: NOTHING },
  'POST /v1/events': { summary: 'Log a custom event (conversion)', response: replies({ event: EVENT, events: arrayOf(EVENT) }, { optional: ['events'] }) },
  'PUT /v1/events/:id/verification': {
    summary: 'Accept or reject an event',
    params: [numberParam('verification', { integer: true, min: -1, max: 1 }, { required: true })],
    response: replies({ event: EVENT }, { optional: ['event'] }),
  },
  'GET /v1/users': {
    summary: 'List users; ours: onTrip=true, inside=true, geofenceId, fraud=true exact from trips, presence and flagged-users rows; search and the false filters alone a bounded scan that says where it stopped',
    response: replies({ users: arrayOf(USER) }, { meta: {
      hasMore: BOOLEAN,
      // Ours, with a filter only (server/features/users/user-list.ts).
      scanned: INTEGER, scanStopped: BOOLEAN,
      // Ours, with onTrip=true, inside=true or geofenceId (server/features/users/linked-user-list.ts).
      exact: BOOLEAN, capped: BOOLEAN, total: INTEGER,
      next: object({ updatedBefore: STRING, beforeId: STRING, updatedAfter: STRING, afterId: STRING }, { optional: ['updatedBefore', 'beforeId', 'updatedAfter', 'afterId'] }),
    } }),
  },
  'GET /v1/users/:id': { summary: 'Get a user by _id, userId or deviceId', response: replies({ user: USER }) },
  'DELETE /v1/users/:id': { summary: 'Delete a user, with its location history', response: NOTHING },
  'GET /v1/users/:id/locations': {
    summary: 'A user\'s location history, newest first (ours): one entry per accepted track update, at most one a minute while the user stays within 10 m; kept locationHistoryDays (project setting)',
    response: replies({ locations: arrayOf(LOCATION) }, LIST_META),
  },
  'GET /v1/users/:id/events': { summary: 'A user\'s events, newest first (ours)', response: replies({ events: arrayOf(EVENT) }, LIST_META) },
  'GET /v1/users/:id/fraud': { summary: 'The fraud override of a user', response: replies({ fraudOverride: FRAUD_OVERRIDE }) },
  'PUT /v1/users/:id/fraud': { summary: 'Set the fraud override of a user (bypass or block)', response: replies({ fraudOverride: FRAUD_OVERRIDE }) },
  'GET /v1/geofences': { summary: 'List geofences', response: replies({ geofences: arrayOf(GEOFENCE) }, LIST_META) },
  'POST /v1/geofences': { summary: 'Create a geofence (upsert when tag and externalId are given)', response: replies({ geofence: GEOFENCE }, { errors: [503] }) },
  'POST /v1/geofences/preview': {
    summary: 'The geofence a body would make (an isochrone\'s area computed, an address placed), not saved (for the dashboard)',
    response: replies({ geofence: GEOFENCE }, { errors: [503] }),
  },
  'PUT /v1/geofences/:tag/:externalId': { summary: 'Create or update the geofence with this tag and externalId', response: replies({ geofence: GEOFENCE }, { errors: [503] }) },
  'PUT /v1/geofences/:id': { summary: 'Update a geofence by _id', response: replies({ geofence: GEOFENCE }, { errors: [503] }) },
  'GET /v1/geofences/:id': { summary: 'Get a geofence by _id', response: replies({ geofence: GEOFENCE }) },
  'GET /v1/geofences/:tag/:externalId': { summary: 'Get a geofence by tag and externalId', response: replies({ geofence: GEOFENCE }) },
  'DELETE /v1/geofences/:id': { summary: 'Delete a geofence by _id', response: NOTHING },
  'DELETE /v1/geofences/:tag/:externalId': { summary: 'Delete a geofence by tag and externalId', response: NOTHING },
  'POST /v1/geofences/import': {
    summary: 'Import geofences from a CSV upload',
    description: 'A file with problems writes nothing and answers 400 with every problem in import.errors (row, column, message).',
    response: replies({ import: IMPORT_RESULT }, { errorBody: { import: IMPORT_RESULT } }),
  },
  'GET /v1/geofences/:tag/:externalId/users': { summary: 'Users currently in a geofence', response: replies({ users: arrayOf(USER) }, LIST_META) },
  'GET /v1/geofences/:id/users': {
    summary: 'Users currently in a geofence, by its _id (else the geofence with that tag and externalId "users")',
    response: replies({ users: arrayOf(USER), geofence: GEOFENCE }, { optional: ['users', 'geofence'], meta: { hasMore: BOOLEAN } }),
  },
  'GET /v1/search/geofences': { summary: 'Geofences near a point', response: replies({ geofences: arrayOf(GEOFENCE) }) },
  'GET /v1/search/users': {
    summary: 'Users near a point',
    params: [near, numberParam('radius', { min: 100, max: 10000 }, { description: 'metres' }), enumParam('mode', ['car', 'truck', 'foot', 'bike'])],
    response: replies({ users: arrayOf(USER) }, { errors: [503] }),
  },
  'GET /v1/search/beacons': { summary: 'Beacons near a point', params: [near, numberParam('radius', { min: 1, max: 10000 })], response: replies({ beacons: arrayOf(BEACON) }) },
  'GET /v1/search/places': { summary: 'Places near a point, by chain, category or IATA code', response: replies({ places: arrayOf(PLACE) }, { errors: [503] }) },
  'GET /v1/beacons': { summary: 'List beacons', params: PAGING, response: replies({ beacons: arrayOf(BEACON) }, LIST_META) },
  'POST /v1/beacons': { summary: 'Create a beacon', response: replies({ beacon: BEACON }, { errors: [503] }) },
  'PUT /v1/beacons/:tag/:externalId': { summary: 'Create or update the beacon with this tag and externalId', response: replies({ beacon: BEACON }, { errors: [503] }) },
  'PUT /v1/beacons/:id': { summary: 'Update a beacon by _id', response: replies({ beacon: BEACON }, { errors: [503] }) },
  'GET /v1/beacons/:id': { summary: 'Get a beacon by _id', response: replies({ beacon: BEACON }) },
  'GET /v1/beacons/:tag/:externalId': { summary: 'Get a beacon by tag and externalId', response: replies({ beacon: BEACON }) },
  'DELETE /v1/beacons/:id': { summary: 'Delete a beacon by _id', response: NOTHING },
  'DELETE /v1/beacons/:tag/:externalId': { summary: 'Delete a beacon by tag and externalId', response: NOTHING },
  'GET /v1/trips': {
    summary: 'List trips',
    params: [listParam('status', { description: `any of ${TRIP_STATUSES.join(', ')}, expired` }), ...PAGING],
    response: replies({ trips: arrayOf(TRIP) }, LIST_META),
  },
  'POST /v1/trips': {
    summary: 'Start a trip',
    params: [stringParam('externalId', {}, { required: true }), enumParam('status', ['pending', 'started', 'approaching', 'arrived']), ...tripFields],
    response: replies({ trip: TRIP, events: arrayOf(EVENT) }, { optional: ['events'], errors: [409, 503] }),
  },
  'GET /v1/trips/:id': { summary: 'Get a trip by _id or externalId', response: replies({ trip: TRIP }) },
  'DELETE /v1/trips/:id': { summary: 'Delete a trip', response: NOTHING },
  'PATCH /v1/trips/:id/update': {
    summary: 'Update a trip\'s status and fields',
    description: 'Without status the trip keeps its status (Radar\'s web SDK never sends one); see docs/trips.md.',
    params: [enumParam('status', TRIP_STATUSES), ...tripFields],
    response: replies({ trip: TRIP, events: arrayOf(EVENT) }, { optional: ['events'], errors: [409, 503] }),
  },
  'GET /v1/route/distance': { summary: 'Distance and duration between two points, per mode', response: replies({ routes: DISTANCE_ROUTES }, ROUTING_META) },
  'GET /v1/route/matrix': {
    summary: 'Distances and durations between origins and destinations',
    response: replies({ origins: arrayOf(LAT_LNG), destinations: arrayOf(LAT_LNG), matrix: arrayOf(arrayOf(MATRIX_CELL)) }, ROUTING_META),
  },
  'GET /v1/route/directions': { summary: 'Directions through locations, with steps and instructions', response: replies({ routes: arrayOf(DIRECTIONS_ROUTE) }, ROUTING_META) },
  'GET /v1/route/optimize': { summary: 'The shortest order to visit up to 10 locations', response: replies({ route: OPTIMIZED_ROUTE }, ROUTING_META) },
  'POST /v1/route/match': {
    summary: 'Snap a GPS trace to roads (map matching)',
    response: replies({ matchedPath: arrayOf(MATCHED_POINT), geometry: MATCH_GEOMETRY, distance: MEASURE_SCHEMA, roadAttributes: arrayOf(ROAD_ATTRIBUTE) }, { ...ROUTING_META, optional: ['roadAttributes'] }),
  },
  'GET /v1/data/extracts': { summary: 'Imported map extracts and their stages', response: replies({ extracts: arrayOf(EXTRACT) }) },
  'GET /v1/data/overview': { summary: 'How many geofences and where they lie (where the dashboard map opens)', response: replies({ geofences: DATA_OVERVIEW }) },
  'GET /v1/data/map': {
    summary: 'The geofences and users in a map view: shapes thinned to the zoom\'s pixel, or counts per grid cell when the view holds too many (for the dashboard map)',
    response: replies({ geofences: MAP_GEOFENCES, users: MAP_USERS }, { optional: ['geofences', 'users'] }),
  },
  'GET /v1/data/basemap': {
    summary: 'Water, parks, woods, buildings (zoom 15+), waterways and names of the imported extracts in a map view, bounded per answer (for the dashboard map)',
    response: replies({
      water: BASEMAP_SHAPES, park: BASEMAP_SHAPES, wood: BASEMAP_SHAPES, building: BASEMAP_SHAPES, waterway: BASEMAP_SHAPES,
      labels: arrayOf(BASEMAP_LABEL), scale: INTEGER,
      buildingGrid: { ...NUMBER, description: 'buildings are cut into cells on multiples of this many degrees: an edge on such a line is a cut, not a wall' },
    }, { meta: { cut: BOOLEAN } }),
  },
  'GET /v1/data/roads': { summary: 'Road geometry of the embedded network in a box (for the dashboard map)', response: replies({ roads: arrayOf(ROAD) }, { meta: { cut: BOOLEAN } }) },
  'GET /v1/settings': { summary: 'Places settings (Radar form)', response: replies({ settings: PLACES_SETTINGS, ...PLACES_SETTINGS_TOP_LEVEL }, { optional: Object.keys(PLACES_SETTINGS_TOP_LEVEL) }) },
  'PATCH /v1/settings': { summary: 'Change Places settings (Radar form)', response: replies({ settings: PLACES_SETTINGS, ...PLACES_SETTINGS_TOP_LEVEL }, { optional: Object.keys(PLACES_SETTINGS_TOP_LEVEL) }) },
  'GET /v1/project/settings': { summary: 'Project settings', response: replies({ settings: PROJECT_SETTINGS }) },
  'PATCH /v1/project/settings': { summary: 'Change project settings', response: replies({ settings: PROJECT_SETTINGS }) },
  'GET /v1/project/keys': { summary: 'The key\'s environment\'s keys: publishable whole, secret as a prefix', response: replies({ keys: arrayOf(STORED_API_KEY) }) },
  'POST /v1/project/keys/rotate': { summary: 'Issue new keys for the key\'s environment (the old ones stop working)', response: replies({ keys: arrayOf(API_KEY) }) },
  'POST /v1/logs': { summary: 'SDK log upload (accepted and dropped)', response: NOTHING },
  'POST /v1/sync/region': {
    summary: 'Geofences, places and beacons around the device, for offline use',
    response: replies({ geofences: arrayOf(GEOFENCE), places: arrayOf(PLACE), beacons: arrayOf(BEACON), region: SYNC_REGION }),
  },
  'GET /v1/geocode/forward': { summary: 'Addresses and places matching a query', response: replies({ addresses: arrayOf(ADDRESS) }, { errors: [503] }) },
  'GET /v1/geocode/reverse': { summary: 'The address at a point', response: replies({ addresses: arrayOf(ADDRESS) }, { errors: [503] }) },
  'GET /v1/geocode/ip': { summary: 'Locate the caller\'s IP address', response: replies({ address: ADDRESS, ip: STRING, proxy: BOOLEAN }, { errors: [404] }) },
  'GET /v1/search/autocomplete': { summary: 'Addresses and places completing a partial query', response: replies({ addresses: arrayOf(ADDRESS) }, { errors: [503] }) },
  'POST /v1/search/autocomplete/click': { summary: 'The autocomplete widget\'s report of a picked suggestion (acknowledged, not kept)', response: NOTHING },
  'GET /v1/addresses/validate': { summary: 'Validate a US or Canadian address', response: replies({ address: VALIDATED_ADDRESS, result: VALIDATION_RESULT }, { errors: [503] }) },
  'GET /v1/geofence-sync': { summary: 'Nightly geofence sync settings and last run', response: replies({ sync: SYNC_SETTINGS }) },
  'PUT /v1/geofence-sync': { summary: 'Set the nightly geofence sync', response: SYNC_SAVED },
  'PATCH /v1/geofence-sync': { summary: 'Change the nightly geofence sync', response: SYNC_SAVED },
  'DELETE /v1/geofence-sync': { summary: 'Turn off and forget the nightly geofence sync', response: NOTHING },
  'POST /v1/geofence-sync/run': { summary: 'Run the geofence sync now', response: replies({ runStarted: BOOLEAN, run: nullable(SYNC_RUN) }, { optional: ['run'], errors: [404, 409], alsoStatus: 202 }) },
  'GET /v1/geofence-sync/runs': { summary: 'Past geofence sync runs', response: replies({ runs: arrayOf(SYNC_RUN) }, LIST_META) },
  'GET /v1/webhooks': { summary: 'List webhooks', response: replies({ webhooks: arrayOf(WEBHOOK) }, LIST_META) },
  'POST /v1/webhooks': { summary: 'Create a webhook', response: replies({ webhook: WEBHOOK }) },
  'GET /v1/webhooks/:id': { summary: 'Get a webhook', response: replies({ webhook: WEBHOOK }) },
  'PATCH /v1/webhooks/:id': { summary: 'Change a webhook', response: replies({ webhook: WEBHOOK }) },
  'DELETE /v1/webhooks/:id': { summary: 'Delete a webhook', response: NOTHING },
  'POST /v1/webhooks/:id/token': { summary: 'Rotate a webhook\'s signing token', response: replies({ webhook: WEBHOOK }) },
  'GET /v1/webhooks/:id/deliveries': { summary: 'Delivery log of a webhook', params: PAGING, response: replies({ deliveries: arrayOf(DELIVERY) }, LIST_META) },
  'GET /v1/webhooks/:id/queue': { summary: 'Queue depth of a webhook: rows pending and dead, the oldest pending and its next attempt', response: replies({ queue: WEBHOOK_QUEUE }) },
  'GET /v1/webhooks/:id/dead-letters': { summary: 'Dead letters of a webhook', response: replies({ deadLetters: arrayOf(DEAD_LETTER) }, LIST_META) },
  'POST /v1/webhooks/:id/redeliver': {
    summary: 'Redeliver events',
    response: replies({ queued: INTEGER, eventIds: arrayOf(STRING), missing: arrayOf(STRING) }, { optional: ['eventIds'], meta: { hasMore: BOOLEAN } }),
  },
  'POST /v1/webhooks/:id/dead-letters/redeliver': {
    summary: 'Redeliver dead letters',
    response: replies({ queued: INTEGER, missing: arrayOf(STRING) }, { meta: { hasMore: BOOLEAN } }),
  },
};
