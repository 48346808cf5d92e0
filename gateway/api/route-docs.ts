// Summaries and parameters of the v1 routes that do not carry a `doc` of their own, for the OpenAPI
// document (http/openapi.ts). Keyed "METHOD /path" exactly as the route table says; a test fails on a key
// that matches no route, so this table cannot outlive a route. New routes had better carry `doc` on the
// Route itself, next to the readers it describes.
import {
  booleanParam, datetimeParam, enumParam, listParam, numberParam, objectParam, stringParam,
} from '../http/params';
import type { RouteDoc } from '../http/route';

const LATITUDE = { min: -90, max: 90 };
const LONGITUDE = { min: -180, max: 180 };
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

export const ROUTE_DOCS: Record<string, RouteDoc> = {
  'POST /v1/track': {
    summary: 'Track a location update: geofence, region and trip events, the user',
    params: [
      stringParam('deviceId', {}, { required: true }),
      numberParam('latitude', LATITUDE, { required: true }),
      numberParam('longitude', LONGITUDE, { required: true }),
      numberParam('accuracy', { greaterThan: 0 }, { required: true, description: 'metres' }),
      stringParam('userId'), booleanParam('foreground'), booleanParam('stopped'), stringParam('description'),
      objectParam('metadata'), datetimeParam('updatedAt'), booleanParam('replayed'),
      stringParam('deviceOS'), stringParam('deviceMake'), stringParam('deviceModel'),
    ],
  },
  'POST /v1/track/replay': { summary: 'Replay offline location updates in order' },
  'GET /v1/context': {
    summary: 'Geofences and regions at a point, without tracking',
    params: [stringParam('coordinates', {}, { required: true, description: '"latitude,longitude"' })],
  },
  'GET /v1/config': { summary: 'SDK configuration for the key\'s project' },
  'GET /v1/events': { summary: 'List events' },
  'GET /v1/events/:id': { summary: 'Get an event' },
  'DELETE /v1/events/:id': { summary: 'Delete an event' },
  'POST /v1/events': { summary: 'Log a custom event (conversion)' },
  'PUT /v1/events/:id/verification': { summary: 'Accept or reject an event', params: [numberParam('verification', { integer: true, min: -1, max: 1 }, { required: true })] },
  'GET /v1/users': { summary: 'List users' },
  'GET /v1/users/:id': { summary: 'Get a user by _id, userId or deviceId' },
  'DELETE /v1/users/:id': { summary: 'Delete a user' },
  'GET /v1/geofences': { summary: 'List geofences' },
  'POST /v1/geofences': { summary: 'Create a geofence (upsert when tag and externalId are given)' },
  'POST /v1/geofences/import': { summary: 'Import geofences from a CSV upload' },
  'GET /v1/geofences/:tag/:externalId/users': { summary: 'Users currently in a geofence' },
  'GET /v1/geofences/:id/users': { summary: 'Users currently in a geofence, by its _id (else the geofence with that tag and externalId "users")' },
  'GET /v1/search/geofences': { summary: 'Geofences near a point' },
  'GET /v1/search/users': {
    summary: 'Users near a point',
    params: [near, numberParam('radius', { min: 100, max: 10000 }, { description: 'metres' }), enumParam('mode', ['car', 'truck', 'foot', 'bike'])],
  },
  'GET /v1/search/beacons': { summary: 'Beacons near a point', params: [near, numberParam('radius', { min: 1, max: 10000 })] },
  'GET /v1/beacons': { summary: 'List beacons' },
  'POST /v1/beacons': { summary: 'Create a beacon' },
  'GET /v1/trips': { summary: 'List trips', params: [listParam('status', { description: `any of ${TRIP_STATUSES.join(', ')}, expired` })] },
  'POST /v1/trips': {
    summary: 'Start a trip',
    params: [stringParam('externalId', {}, { required: true }), enumParam('status', ['pending', 'started', 'approaching', 'arrived']), ...tripFields],
  },
  'GET /v1/trips/:id': { summary: 'Get a trip by _id or externalId' },
  'DELETE /v1/trips/:id': { summary: 'Delete a trip' },
  'PATCH /v1/trips/:id/update': {
    summary: 'Update a trip\'s status and fields',
    description: 'Without status the trip keeps its status (Radar\'s web SDK never sends one); see docs/trips.md.',
    params: [enumParam('status', TRIP_STATUSES), ...tripFields],
  },
  'GET /v1/settings': { summary: 'Project settings (Radar form)' },
  'PATCH /v1/settings': { summary: 'Change project settings (Radar form)' },
  'GET /v1/project/settings': { summary: 'Project settings' },
  'PATCH /v1/project/settings': { summary: 'Change project settings' },
  'POST /v1/logs': { summary: 'SDK log upload (accepted and dropped)' },
  'POST /v1/sync/region': { summary: 'Geofences and beacons around the device, for offline use' },
  'GET /v1/geocode/ip': { summary: 'Locate the caller\'s IP address' },
  'GET /v1/webhooks': { summary: 'List webhooks' },
  'POST /v1/webhooks': { summary: 'Create a webhook' },
  'GET /v1/webhooks/:id': { summary: 'Get a webhook' },
  'PATCH /v1/webhooks/:id': { summary: 'Change a webhook' },
  'DELETE /v1/webhooks/:id': { summary: 'Delete a webhook' },
  'POST /v1/webhooks/:id/token': { summary: 'Rotate a webhook\'s signing token' },
  'GET /v1/webhooks/:id/deliveries': { summary: 'Delivery log of a webhook' },
  'GET /v1/webhooks/:id/dead-letters': { summary: 'Dead letters of a webhook' },
  'POST /v1/webhooks/:id/redeliver': { summary: 'Redeliver events' },
  'POST /v1/webhooks/:id/dead-letters/redeliver': { summary: 'Redeliver dead letters' },
};
