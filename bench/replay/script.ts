// The scripted requests: every endpoint family of the API, each with its refusals (4xx), over Monaco
// (the extract the runner imports). Order matters and is fixed: later requests send back ids earlier
// answers gave. Nothing here depends on the clock: track updates carry the script's own timestamps, so
// speeds, dwell times and fraud checks come out the same in every run; webhooks stay disabled, so no
// delivery races the script; the geofence sync is only read and refused, never started.
import type { Recorder } from './recorder';

export interface ProjectKeys {
  testPk: string;
  testSk: string;
  livePk: string;
  liveSk: string;
}

type Point = { lat: number; lng: number };

const CASINO: Point = { lat: 43.7392, lng: 7.4277 };
const PALACE: Point = { lat: 43.7311, lng: 7.4197 };
const LARVOTTO: Point = { lat: 43.746, lng: 7.436 };
const PORT: Point = { lat: 43.735, lng: 7.423 };
const FONTVIEILLE: Point = { lat: 43.7285, lng: 7.4155 };
const PARIS: Point = { lat: 48.8566, lng: 2.3522 };
const ll = (p: Point): string => `${p.lat},${p.lng}`;
/** A square ring of half-side `d` degrees around p, [lng, lat] as GeoJSON. */
const square = (p: Point, d: number): number[][][] => [[
  [p.lng - d, p.lat - d], [p.lng + d, p.lat - d], [p.lng + d, p.lat + d], [p.lng - d, p.lat + d], [p.lng - d, p.lat - d],
]];

export async function runScript(r: Recorder, k: ProjectKeys): Promise<void> {
  const sk = k.testSk;
  const pk = k.testPk;

  // --- service, docs and auth --------------------------------------------------------------------
  await r.call('health', 'GET', '/health');
  await r.call('ready', 'GET', '/ready');
  await r.call('openapi document', 'GET', '/v1/openapi.json');
  await r.call('config', 'GET', '/v1/config', { key: pk, query: { deviceId: 'replay-a', installId: 'i-1', sessionId: 's-1', locationAuthorization: 'GRANTED_FOREGROUND' } });
  await r.call('no key', 'GET', '/v1/users');
  await r.call('unknown key', 'GET', '/v1/users', { key: 'prj_test_sk_0000000000000000000000000000000000000000' });
  await r.call('publishable key on a secret endpoint', 'GET', '/v1/users', { key: pk });
  await r.call('unknown path', 'GET', '/v1/nothing-here', { key: sk });
  await r.call('wrong method', 'DELETE', '/v1/config', { key: pk });
  await r.call('malformed JSON', 'POST', '/v1/track', { key: pk, raw: { contentType: 'application/json', text: '{"deviceId": ' } });

  // --- project settings (features on, so track answers carry places, regions and fraud) ----------
  await r.call('project settings', 'GET', '/v1/project/settings', { key: sk });
  await r.call('project settings on', 'PATCH', '/v1/project/settings', { key: sk, body: { places: true, regions: true, fraud: true, dwellEvents: true, tripApproachingThreshold: 3 } });
  await r.call('project settings: unknown name', 'PATCH', '/v1/project/settings', { key: sk, body: { noSuchSetting: true } });
  await r.call('project settings: bad value', 'PATCH', '/v1/project/settings', { key: sk, body: { tripExpirationHours: 'soon' } });
  await r.call('project settings, publishable key', 'GET', '/v1/project/settings', { key: pk });
  await r.call('project settings, live', 'PATCH', '/v1/project/settings', { key: k.liveSk, body: { fraud: true } });

  // --- places settings ---------------------------------------------------------------------------
  await r.call('settings', 'GET', '/v1/settings', { key: sk });
  await r.call('settings: chain metadata', 'PATCH', '/v1/settings', { key: sk, body: { chainMetadata: { mcdonalds: { franchise: 'yes' } } } });
  await r.call('settings: Radar placeFilters shape', 'PATCH', '/v1/settings', { key: sk, form: true, body: { placeFilters: { chain: ['mcdonalds'], category: ['restaurant'] } } });
  await r.call('settings: chain mappings', 'PATCH', '/v1/settings', { key: sk, body: { chainMappings: { 'mcdonalds-1': 'mcdonalds' } } });
  await r.call('settings after', 'GET', '/v1/settings', { key: sk });
  await r.call('settings: bad placeFilters', 'PATCH', '/v1/settings', { key: sk, body: { placeFilters: 'all' } });
  await r.call('settings: unknown field', 'PATCH', '/v1/settings', { key: sk, body: { colour: 'blue' } });
  await r.call('settings, publishable key', 'PATCH', '/v1/settings', { key: pk, body: {} });
  await r.call('settings: placeFilters reset', 'PATCH', '/v1/settings', { key: sk, body: { placeFilters: {} } });

  // --- geofences CRUD ----------------------------------------------------------------------------
  const casino = await r.call('geofence PUT circle', 'PUT', '/v1/geofences/venue/casino', {
    key: sk, body: { description: 'Casino', type: 'circle', coordinates: [CASINO.lng, CASINO.lat], radius: 120, metadata: { kind: 'landmark', floors: 3 } },
  });
  await r.call('geofence PUT polygon (form)', 'PUT', '/v1/geofences/area/port', {
    key: sk, form: true, body: { description: 'Port Hercule', type: 'polygon', coordinates: JSON.stringify(square(PORT, 0.0015)), dwellThreshold: 2 },
  });
  await r.call('geofence POST circle', 'POST', '/v1/geofences', {
    key: sk, body: { description: 'Palace', tag: 'venue', externalId: 'palace', type: 'circle', coordinates: [PALACE.lng, PALACE.lat], radius: 150, stopDetection: false },
  });
  await r.call('geofence POST upsert same', 'POST', '/v1/geofences', {
    key: sk, body: { description: 'Palace (Prince)', tag: 'venue', externalId: 'palace', type: 'circle', coordinates: [PALACE.lng, PALACE.lat], radius: 150 },
  });
  await r.call('geofence PUT with operating hours', 'PUT', '/v1/geofences/venue/fontvieille', {
    key: sk, body: { description: 'Fontvieille', type: 'circle', coordinates: [FONTVIEILLE.lng, FONTVIEILLE.lat], radius: 200, operatingHours: { Mon: [['08:00', '20:00']] } },
  });
  await r.call('geofence PUT isochrone (car, 3 min)', 'PUT', '/v1/geofences/iso/casino-car', {
    key: sk, body: { description: 'Casino drive', type: 'isochrone', coordinates: [CASINO.lng, CASINO.lat], radius: 3, mode: 'car' },
  });
  await r.call('geofence PUT isochrone (foot, 5 min)', 'PUT', '/v1/geofences/iso/palace-foot', {
    key: sk, body: { description: 'Palace walk', type: 'isochrone', coordinates: [PALACE.lng, PALACE.lat], radius: 5, mode: 'foot' },
  });
  await r.call('geofence PUT live', 'PUT', '/v1/geofences/venue/casino', {
    key: k.liveSk, body: { description: 'Casino live', type: 'circle', coordinates: [CASINO.lng, CASINO.lat], radius: 100 },
  });
  const casinoId = casino.body?.geofence?._id as string | undefined;
  await r.call('geofence GET by id', 'GET', `/v1/geofences/${casinoId}`, { key: sk });
  await r.call('geofence GET by tag/externalId', 'GET', '/v1/geofences/area/port', { key: sk });
  await r.call('geofence PUT by id', 'PUT', `/v1/geofences/${casinoId}`, {
    key: sk, body: { description: 'Casino de Monte-Carlo', type: 'circle', coordinates: [CASINO.lng, CASINO.lat], radius: 120, metadata: { kind: 'landmark', floors: 3 } },
  });
  await r.call('geofences list', 'GET', '/v1/geofences', { key: sk });
  await r.call('geofences list by tag', 'GET', '/v1/geofences', { key: sk, query: { tag: 'venue', limit: 2 } });
  await r.call('geofences list oldest first', 'GET', '/v1/geofences', { key: sk, query: { order: 'asc' } });
  await r.call('geofences list live', 'GET', '/v1/geofences', { key: k.liveSk });
  for (const [label, body] of [
    ['no type', { description: 'x', coordinates: [7.42, 43.73], radius: 100 }],
    ['bad type', { description: 'x', type: 'triangle', coordinates: [7.42, 43.73], radius: 100 }],
    ['radius too small', { description: 'x', type: 'circle', coordinates: [7.42, 43.73], radius: 1 }],
    ['latitude out of range', { description: 'x', type: 'circle', coordinates: [7.42, 143.73], radius: 100 }],
    ['open polygon', { description: 'x', type: 'polygon', coordinates: [[[7.42, 43.73], [7.43, 43.73], [7.43, 43.74]]] }],
    ['metadata not an object', { description: 'x', type: 'circle', coordinates: [7.42, 43.73], radius: 100, metadata: 'm' }],
    ['isochrone without mode', { description: 'x', type: 'isochrone', coordinates: [7.42, 43.73], radius: 5 }],
    ['antimeridian', { description: 'x', type: 'polygon', coordinates: [[[179.9, 10], [-179.9, 10], [-179.9, 11], [179.9, 11], [179.9, 10]]] }],
  ] as const) {
    await r.call(`geofence 400: ${label}`, 'PUT', '/v1/geofences/bad/one', { key: sk, body });
  }
  await r.call('geofence 404 by id', 'GET', '/v1/geofences/5f0000000000000000000000', { key: sk });
  await r.call('geofence 404 by tag', 'GET', '/v1/geofences/none/none', { key: sk });
  await r.call('geofence PUT by unknown id', 'PUT', '/v1/geofences/5f0000000000000000000000', { key: sk, body: { description: 'x', type: 'circle', coordinates: [7.42, 43.73], radius: 100 } });
  await r.call('geofence, publishable key', 'GET', '/v1/geofences', { key: pk });
  await r.call('search geofences near the casino', 'GET', '/v1/search/geofences', { key: pk, query: { near: ll(CASINO), radius: 1000 } });
  await r.call('search geofences by tag', 'GET', '/v1/search/geofences', { key: pk, query: { near: ll(PALACE), radius: 5000, tags: 'venue', limit: 10 } });
  await r.call('search geofences with metadata filter', 'GET', '/v1/search/geofences', { key: pk, query: { near: ll(CASINO), radius: 500, 'metadata[kind]': 'landmark' } });
  await r.call('search geofences 400: no near', 'GET', '/v1/search/geofences', { key: pk, query: { radius: 100 } });
  await r.call('search geofences 400: bad radius', 'GET', '/v1/search/geofences', { key: pk, query: { near: ll(CASINO), radius: -3 } });

  // --- geofences CSV -----------------------------------------------------------------------------
  const csv = [
    'description,type,tag,externalId,coordinates,radius,metadata.brand,operatingHours.Mon',
    `Larvotto beach,circle,beach,larvotto,"[${LARVOTTO.lng},${LARVOTTO.lat}]",150,sun,"[[""8:00 am"",""8:30 pm""]]"`,
    `Rocher,polygon,area,rocher,"${JSON.stringify(square(PALACE, 0.002)[0]).replace(/"/g, '""')}",,,`,
    `Stade,circle,venue,stade,"[7.4159,43.7275]",90,louis,`,
  ].join('\n');
  await r.call('geofences CSV import', 'POST', '/v1/geofences/import', { key: sk, raw: { contentType: 'text/csv', text: csv } });
  await r.call('geofences CSV import again (upsert)', 'POST', '/v1/geofences/import', { key: sk, raw: { contentType: 'text/csv', text: csv } });
  await r.call('geofences CSV 400: bad rows', 'POST', '/v1/geofences/import', {
    key: sk, raw: { contentType: 'text/csv', text: 'description,type,tag,externalId,coordinates,radius\nA,circle,t,1,"[7.42,43.73]",0\nB,square,t,2,"[7.42,43.73]",50\n' },
  });
  await r.call('geofences CSV 400: no header', 'POST', '/v1/geofences/import', { key: sk, raw: { contentType: 'text/csv', text: '' } });
  await r.call('geofences CSV 415: JSON body', 'POST', '/v1/geofences/import', { key: sk, body: { rows: [] } });
  await r.call('geofences CSV, publishable key', 'POST', '/v1/geofences/import', { key: pk, raw: { contentType: 'text/csv', text: csv } });
  await r.call('geofences after CSV', 'GET', '/v1/geofences', { key: sk, query: { limit: 100 } });
  await r.call('geofence sync settings', 'GET', '/v1/geofence-sync', { key: sk });
  await r.call('geofence sync runs', 'GET', '/v1/geofence-sync/runs', { key: sk });
  await r.call('geofence sync PUT, unknown field, stays disabled', 'PUT', '/v1/geofence-sync', { key: sk, body: { sources: [{ url: 'ftp://example.invalid/x.csv' }] } });
  await r.call('geofence sync 400: private address', 'PATCH', '/v1/geofence-sync', { key: sk, body: { protocol: 'https', testUrl: 'http://10.0.0.1/x.csv' } });
  await r.call('geofence sync 400: bad protocol', 'PATCH', '/v1/geofence-sync', { key: sk, body: { protocol: 'gopher' } });

  // --- beacons -------------------------------------------------------------------------------------
  const UUID = 'B9407F30-F5F8-466E-AFF9-25556B57FE6D';
  const beacon = await r.call('beacon PUT ibeacon', 'PUT', '/v1/beacons/store/lobby', {
    key: sk, body: { description: 'Lobby', type: 'ibeacon', uuid: UUID, major: '100', minor: '7', coordinates: [CASINO.lng, CASINO.lat], metadata: { floor: 0 } },
  });
  await r.call('beacon POST eddystone', 'POST', '/v1/beacons', {
    key: sk, body: { description: 'Dock', tag: 'store', externalId: 'dock', type: 'eddystone', uid: 'edd1ebeac04e5defa017', instance: '0123456789ab', coordinates: [PORT.lng, PORT.lat] },
  });
  const beaconId = beacon.body?.beacon?._id as string | undefined;
  await r.call('beacon GET by id', 'GET', `/v1/beacons/${beaconId}`, { key: sk });
  await r.call('beacon GET by tag/externalId', 'GET', '/v1/beacons/store/dock', { key: sk });
  await r.call('beacon PUT by id', 'PUT', `/v1/beacons/${beaconId}`, { key: sk, body: { description: 'Lobby east', type: 'ibeacon', uuid: UUID, major: '100', minor: '8', coordinates: [CASINO.lng, CASINO.lat] } });
  await r.call('beacons list', 'GET', '/v1/beacons', { key: sk });
  await r.call('search beacons', 'GET', '/v1/search/beacons', { key: pk, query: { near: ll(CASINO), radius: 1000 } });
  await r.call('beacon 400: bad uuid', 'PUT', '/v1/beacons/store/bad', { key: sk, body: { description: 'x', type: 'ibeacon', uuid: 'nope', major: '1', minor: '1', coordinates: [7.42, 43.73] } });
  await r.call('beacon 400: unknown type', 'PUT', '/v1/beacons/store/bad', { key: sk, body: { description: 'x', type: 'bluetooth', coordinates: [7.42, 43.73] } });
  await r.call('beacon 404', 'GET', '/v1/beacons/5f0000000000000000000000', { key: sk });
  await r.call('beacons, publishable key', 'GET', '/v1/beacons', { key: pk });
  await r.call('search beacons 400', 'GET', '/v1/search/beacons', { key: pk, query: { near: 'here' } });

  // --- webhooks (disabled: nothing is delivered while the script runs) -----------------------------
  const hook = await r.call('webhook POST', 'POST', '/v1/webhooks', { key: sk, body: { url: 'https://8.8.8.8/hook#frag', description: 'CRM', enabled: false, types: ['user.entered_geofence', 'user.exited_geofence'] } });
  await r.call('webhook POST batch', 'POST', '/v1/webhooks', { key: sk, body: { url: 'https://8.8.4.4/batch', mode: 'batch', enabled: false } });
  const hookId = hook.body?.webhook?._id as string | undefined;
  await r.call('webhooks list', 'GET', '/v1/webhooks', { key: sk });
  await r.call('webhook GET', 'GET', `/v1/webhooks/${hookId}`, { key: sk });
  await r.call('webhook PATCH', 'PATCH', `/v1/webhooks/${hookId}`, { key: sk, body: { description: 'CRM (EU)', types: ['user.entered_geofence'] } });
  await r.call('webhook token rotate', 'POST', `/v1/webhooks/${hookId}/token`, { key: sk });
  await r.call('webhook deliveries', 'GET', `/v1/webhooks/${hookId}/deliveries`, { key: sk });
  await r.call('webhook dead letters', 'GET', `/v1/webhooks/${hookId}/dead-letters`, { key: sk });
  await r.call('webhook 400: private url', 'POST', '/v1/webhooks', { key: sk, body: { url: 'http://192.168.0.1/' } });
  await r.call('webhook 400: not a url', 'POST', '/v1/webhooks', { key: sk, body: { url: 'hook' } });
  await r.call('webhook with a type no event has (accepted)', 'POST', '/v1/webhooks', { key: sk, body: { url: 'https://8.8.8.8/x', types: ['user.sneezed'], enabled: false } });
  await r.call('webhook 400: types not a list', 'POST', '/v1/webhooks', { key: sk, body: { url: 'https://8.8.8.8/x', types: 7, enabled: false } });
  await r.call('webhook 400: bad mode', 'PATCH', `/v1/webhooks/${hookId}`, { key: sk, body: { mode: 'sometimes' } });
  await r.call('webhook 404', 'GET', '/v1/webhooks/5f0000000000000000000000', { key: sk });
  await r.call('webhooks, publishable key', 'GET', '/v1/webhooks', { key: pk });

  // --- track: a walk through Monaco, entries and exits ---------------------------------------------
  const walk: Array<[string, Point, Record<string, unknown>]> = [
    ['far from everything', LARVOTTO, {}],
    ['at the casino', CASINO, {}],
    ['still at the casino', { lat: CASINO.lat + 0.0002, lng: CASINO.lng }, { stopped: true }],
    ['in the port', PORT, {}],
    ['still in the port (dwell)', { lat: PORT.lat + 0.0003, lng: PORT.lng }, { stopped: true }],
    ['at the palace', PALACE, { foreground: false }],
    ['at Fontvieille', FONTVIEILLE, {}],
    ['back at Larvotto', LARVOTTO, {}],
  ];
  let t = 0;
  for (const [label, p, extra] of walk) {
    t += 180;
    await r.call(`track A: ${label}`, 'POST', '/v1/track', {
      key: pk, body: { deviceId: 'replay-a', userId: 'alice', latitude: p.lat, longitude: p.lng, accuracy: 10, foreground: true, updatedAt: r.at(t), metadata: { step: label }, ...extra },
    });
  }
  // A second user, form-encoded as the Android SDK sends, in the live environment.
  t = 0;
  for (const [label, p] of [['port', PORT], ['casino', CASINO], ['palace', PALACE]] as const) {
    t += 240;
    await r.call(`track B (live, form): ${label}`, 'POST', '/v1/track', {
      key: k.livePk, form: true, body: { deviceId: 'replay-b', userId: 'bob', latitude: p.lat, longitude: p.lng, accuracy: 20, foreground: false, deviceType: 'Android', updatedAt: r.at(t) },
    });
  }
  // A logged-out device, then the same device logged in.
  await r.call('track C: logged out', 'POST', '/v1/track', { key: pk, body: { deviceId: 'replay-c', latitude: PALACE.lat, longitude: PALACE.lng, accuracy: 30, updatedAt: r.at(100) } });
  await r.call('track C: logs in', 'POST', '/v1/track', { key: pk, body: { deviceId: 'replay-c', userId: 'carol', latitude: PALACE.lat, longitude: PALACE.lng, accuracy: 30, updatedAt: r.at(160), description: 'Carol', metadata: { vip: true } } });
  // Fraud: a jump to Paris a minute later, and a mocked location.
  await r.call('track D: Monaco', 'POST', '/v1/track', { key: pk, body: { deviceId: 'replay-d', userId: 'dave', latitude: CASINO.lat, longitude: CASINO.lng, accuracy: 10, updatedAt: r.at(300) } });
  await r.call('track D: Paris a minute later', 'POST', '/v1/track', { key: pk, body: { deviceId: 'replay-d', userId: 'dave', latitude: PARIS.lat, longitude: PARIS.lng, accuracy: 10, updatedAt: r.at(360) } });
  await r.call('track D: mocked', 'POST', '/v1/track', { key: pk, body: { deviceId: 'replay-d', userId: 'dave', latitude: PARIS.lat, longitude: PARIS.lng, accuracy: 10, updatedAt: r.at(420), mocked: true } });
  // Beacons seen on track.
  await r.call('track E: with a beacon', 'POST', '/v1/track', {
    key: pk, body: { deviceId: 'replay-e', userId: 'erin', latitude: CASINO.lat, longitude: CASINO.lng, accuracy: 10, updatedAt: r.at(200), beacons: [{ type: 'ibeacon', uuid: UUID, major: '100', minor: '8', rssi: -60 }] },
  });
  // Several devices on a line, so lists have something to page through.
  for (let i = 0; i < 12; i++) {
    const lat = FONTVIEILLE.lat + i * 0.0015;
    const lng = FONTVIEILLE.lng + i * 0.0011;
    await r.call(`track F${i}`, 'POST', '/v1/track', { key: pk, body: { deviceId: `replay-f${i}`, userId: `f${i}`, latitude: lat, longitude: lng, accuracy: 15, updatedAt: r.at(500 + i * 10) } });
  }
  await r.call('track replay (offline batch)', 'POST', '/v1/track/replay', {
    key: pk, body: { replays: [
      { deviceId: 'replay-g', userId: 'gus', latitude: LARVOTTO.lat, longitude: LARVOTTO.lng, accuracy: 10, updatedAt: r.at(700), replayed: true },
      { deviceId: 'replay-g', userId: 'gus', latitude: CASINO.lat, longitude: CASINO.lng, accuracy: 10, updatedAt: r.at(760), replayed: true },
      { deviceId: 'replay-g', userId: 'gus', latitude: PALACE.lat, longitude: PALACE.lng, accuracy: 10, updatedAt: r.at(820), replayed: true },
    ] },
  });
  for (const [label, body] of [
    ['no deviceId', { latitude: 43.73, longitude: 7.42, accuracy: 10 }],
    ['latitude out of range', { deviceId: 'x', latitude: 93.73, longitude: 7.42, accuracy: 10 }],
    ['longitude not a number', { deviceId: 'x', latitude: 43.73, longitude: 'east', accuracy: 10 }],
    ['negative accuracy', { deviceId: 'x', latitude: 43.73, longitude: 7.42, accuracy: -1 }],
    ['metadata not an object', { deviceId: 'x', latitude: 43.73, longitude: 7.42, accuracy: 10, metadata: [1] }],
    ['deviceId too long', { deviceId: 'x'.repeat(300), latitude: 43.73, longitude: 7.42, accuracy: 10 }],
    ['updatedAt not a date', { deviceId: 'x', latitude: 43.73, longitude: 7.42, accuracy: 10, updatedAt: 'yesterday' }],
    ['bad beacons', { deviceId: 'x', latitude: 43.73, longitude: 7.42, accuracy: 10, beacons: 'many' }],
  ] as const) {
    await r.call(`track 400: ${label}`, 'POST', '/v1/track', { key: pk, body });
  }
  await r.call('track 401', 'POST', '/v1/track', { body: { deviceId: 'x', latitude: 43.73, longitude: 7.42 } });
  await r.call('track replay 400: two devices', 'POST', '/v1/track/replay', {
    key: pk, body: { replays: [{ deviceId: 'a', latitude: 43.73, longitude: 7.42, accuracy: 10 }, { deviceId: 'b', latitude: 43.73, longitude: 7.42, accuracy: 10 }] },
  });

  // --- users -----------------------------------------------------------------------------------------
  const users = await r.call('users list', 'GET', '/v1/users', { key: sk });
  await r.call('users list, page of 5', 'GET', '/v1/users', { key: sk, query: { limit: 5 } });
  await r.call('users list oldest first', 'GET', '/v1/users', { key: sk, query: { order: 'asc', limit: 4 } });
  await r.call('users list live', 'GET', '/v1/users', { key: k.liveSk });
  const aliceId = (users.body?.users as Array<{ _id: string; userId?: string }> | undefined)?.find((u) => u.userId === 'alice')?._id;
  await r.call('user by _id', 'GET', `/v1/users/${aliceId}`, { key: sk });
  await r.call('user by userId', 'GET', '/v1/users/alice', { key: sk });
  await r.call('user by deviceId', 'GET', '/v1/users/replay-c', { key: sk });
  await r.call('user fraud', 'GET', '/v1/users/dave/fraud', { key: sk });
  await r.call('user fraud: bypass', 'PUT', '/v1/users/dave/fraud', { key: sk, body: { bypassed: true } });
  await r.call('user fraud 400', 'PUT', '/v1/users/dave/fraud', { key: sk, body: { bypassed: 'maybe' } });
  await r.call('user 404', 'GET', '/v1/users/nobody-at-all', { key: sk });
  await r.call('users, publishable key', 'GET', '/v1/users', { key: pk });
  await r.call('users 400: bad limit', 'GET', '/v1/users', { key: sk, query: { limit: 'lots' } });
  await r.call('search users near the casino', 'GET', '/v1/search/users', { key: sk, query: { near: ll(CASINO), radius: 2000 } });
  await r.call('search users 400: radius under 100', 'GET', '/v1/search/users', { key: sk, query: { near: ll(CASINO), radius: 5, mode: 'car' } });
  await r.call('search users by car', 'GET', '/v1/search/users', { key: sk, query: { near: ll(CASINO), radius: 600, mode: 'car' } });
  await r.call('search users 400', 'GET', '/v1/search/users', { key: sk, query: { near: ll(CASINO), radius: 'far' } });
  await r.call('users inside the casino', 'GET', '/v1/geofences/venue/casino/users', { key: sk });
  await r.call('users inside the palace (by _id)', 'GET', `/v1/geofences/${casinoId}/users`, { key: sk });
  await r.call('users inside an unknown geofence', 'GET', '/v1/geofences/venue/none/users', { key: sk });

  // --- events --------------------------------------------------------------------------------------
  const events = await r.call('events list', 'GET', '/v1/events', { key: sk });
  await r.call('events list, 3', 'GET', '/v1/events', { key: sk, query: { limit: 3 } });
  await r.call('events by type', 'GET', '/v1/events', { key: sk, query: { type: 'user.exited_geofence' } });
  await r.call('events oldest first', 'GET', '/v1/events', { key: sk, query: { order: 'asc', limit: 5 } });
  await r.call('events live', 'GET', '/v1/events', { key: k.liveSk });
  const eventId = (events.body?.events as Array<{ _id: string }> | undefined)?.[0]?._id;
  await r.call('event by id', 'GET', `/v1/events/${eventId}`, { key: sk });
  await r.call('event verification', 'PUT', `/v1/events/${eventId}/verification`, { key: pk, body: { verification: 1 } });
  await r.call('event verification 400', 'PUT', `/v1/events/${eventId}/verification`, { key: pk, body: { verification: 7 } });
  await r.call('conversion event', 'POST', '/v1/events', { key: pk, body: { userId: 'alice', type: 'purchase', metadata: { total: 12.5 }, createdAt: r.at(1500) } });
  await r.call('conversion event by name with location', 'POST', '/v1/events', { key: pk, body: { deviceId: 'replay-c', name: 'checked_in', latitude: PALACE.lat, longitude: PALACE.lng, accuracy: 10 } });
  await r.call('conversion event 400: no name', 'POST', '/v1/events', { key: pk, body: { userId: 'alice' } });
  await r.call('events 400: bad type', 'GET', '/v1/events', { key: sk, query: { limit: 0 } });
  await r.call('event 404', 'GET', '/v1/events/5f0000000000000000000000', { key: sk });
  await r.call('events, publishable key', 'GET', '/v1/events', { key: pk });
  const lastEvent = (events.body?.events as Array<{ _id: string }> | undefined)?.at(-1)?._id;
  await r.call('event DELETE', 'DELETE', `/v1/events/${lastEvent}`, { key: sk });
  await r.call('event after DELETE', 'GET', `/v1/events/${lastEvent}`, { key: sk });

  // --- trips -----------------------------------------------------------------------------------------
  await r.call('trip start', 'POST', '/v1/trips', { key: pk, body: { externalId: 'order-1', userId: 'alice', destinationGeofenceTag: 'venue', destinationGeofenceExternalId: 'casino', mode: 'car', metadata: { items: 2 } } });
  // After alice's walk (her last update at 1440 s): an older updatedAt would be replaced by the server's clock.
  t = 1500;
  for (const [label, p] of [['leaves Fontvieille', FONTVIEILLE], ['in the port', PORT], ['near the casino', { lat: CASINO.lat - 0.002, lng: CASINO.lng - 0.001 }], ['at the casino', CASINO]] as const) {
    t += 120;
    await r.call(`track A on trip: ${label}`, 'POST', '/v1/track', { key: pk, body: { deviceId: 'replay-a', userId: 'alice', latitude: p.lat, longitude: p.lng, accuracy: 10, foreground: true, updatedAt: r.at(t), tripOptions: { externalId: 'order-1' } } });
  }
  const trips = await r.call('trips list', 'GET', '/v1/trips', { key: sk });
  const tripId = (trips.body?.trips as Array<{ _id: string }> | undefined)?.[0]?._id;
  await r.call('trip by id', 'GET', `/v1/trips/${tripId}`, { key: sk });
  await r.call('trip update: completed', 'PATCH', '/v1/trips/order-1/update', { key: pk, body: { status: 'completed' } });
  await r.call('trip from track tripOptions', 'POST', '/v1/track', {
    key: pk, body: { deviceId: 'replay-f3', userId: 'f3', latitude: PALACE.lat, longitude: PALACE.lng, accuracy: 10, updatedAt: r.at(1300), tripOptions: { externalId: 'order-2', destinationGeofenceTag: 'venue', destinationGeofenceExternalId: 'palace', mode: 'foot' } },
  });
  await r.call('trip started by secret key', 'POST', '/v1/trips', { key: sk, body: { externalId: 'order-3', userId: 'bob-test', destinationGeofenceTag: 'area', destinationGeofenceExternalId: 'port' } });
  await r.call('trip update: canceled', 'PATCH', '/v1/trips/order-3/update', { key: pk, body: { status: 'canceled' } });
  await r.call('trips list by status', 'GET', '/v1/trips', { key: sk, query: { status: 'completed' } });
  await r.call('trips list by externalId', 'GET', '/v1/trips', { key: sk, query: { externalId: 'order-2' } });
  await r.call('trips 400: bad status', 'PATCH', '/v1/trips/order-2/update', { key: pk, body: { status: 'teleported' } });
  await r.call('trip with an unknown destination geofence (accepted)', 'POST', '/v1/trips', { key: pk, body: { externalId: 'order-9', destinationGeofenceTag: 'venue', destinationGeofenceExternalId: 'moon' } });
  await r.call('trips 400: bad mode', 'POST', '/v1/trips', { key: pk, body: { externalId: 'order-9', mode: 'teleport' } });
  await r.call('trip 404', 'GET', '/v1/trips/5f0000000000000000000000', { key: sk });
  await r.call('trip DELETE', 'DELETE', '/v1/trips/order-3', { key: sk });
  await r.call('trips list after', 'GET', '/v1/trips', { key: sk, query: { order: 'asc' } });
  await r.call('events after trips', 'GET', '/v1/events', { key: sk, query: { limit: 100 } });

  // --- context, places ---------------------------------------------------------------------------
  for (const [label, p] of [['casino', CASINO], ['palace', PALACE], ['port', PORT], ['Paris', PARIS]] as const) {
    await r.call(`context at ${label}`, 'GET', '/v1/context', { key: pk, query: { coordinates: ll(p) } });
  }
  await r.call('context 400', 'GET', '/v1/context', { key: pk, query: { coordinates: '91,0' } });
  await r.call('context 401', 'GET', '/v1/context', { query: { coordinates: ll(CASINO) } });
  for (const [label, query] of [
    ['restaurants near the casino', { near: ll(CASINO), categories: 'restaurant', limit: 10 }],
    ['food near the port', { near: ll(PORT), categories: 'food-beverage', radius: 500 }],
    ['cafés and bars by the palace', { near: ll(PALACE), categories: 'cafe,bar', radius: 1000, limit: 20 }],
    ['hotels', { near: ll(LARVOTTO), categories: 'hotel-lodging', radius: 2000 }],
    ['chains', { near: ll(CASINO), chains: 'mcdonalds,starbucks', radius: 5000 }],
    ['400: groups alone', { near: ll(CASINO), groups: 'airports', radius: 5000 }],
    ['an IATA code alone', { iataCode: 'NCE' }],
  ] as const) {
    await r.call(`search places: ${label}`, 'GET', '/v1/search/places', { key: pk, query });
  }
  await r.call('search places 400: nothing to search for', 'GET', '/v1/search/places', { key: pk, query: { near: ll(CASINO) } });
  await r.call('search places 400: bad near', 'GET', '/v1/search/places', { key: pk, query: { near: 'x', categories: 'cafe' } });

  // --- geocoding -----------------------------------------------------------------------------------
  for (const q of ['Boulevard des Moulins', 'Avenue de la Costa, Monaco', 'Place du Casino', 'Rue Grimaldi 10', 'Casino', 'Monte-Carlo', 'Boulevard Princesse Charlotte', 'Avenue Princesse Grace', 'Quai Antoine 1er', 'Rue Grimaldy']) {
    await r.call(`geocode forward: ${q}`, 'GET', '/v1/geocode/forward', { key: pk, query: { query: q } });
  }
  await r.call('geocode forward, layers and country', 'GET', '/v1/geocode/forward', { key: pk, query: { query: 'Boulevard des Moulins', layers: 'address,place', country: 'MC' } });
  await r.call('geocode forward in German', 'GET', '/v1/geocode/forward', { key: pk, query: { query: 'Monaco', lang: 'de' } });
  for (const [label, p] of [['casino', CASINO], ['palace', PALACE], ['port', PORT], ['Larvotto', LARVOTTO], ['Fontvieille', FONTVIEILLE], ['Paris', PARIS]] as const) {
    await r.call(`geocode reverse: ${label}`, 'GET', '/v1/geocode/reverse', { key: pk, query: { coordinates: ll(p) } });
  }
  await r.call('geocode reverse, layers', 'GET', '/v1/geocode/reverse', { key: pk, query: { coordinates: ll(CASINO), layers: 'address' } });
  for (const q of ['Boulevard des Mou', 'Bd des Moulins', 'Avenue de la', 'Casin', 'Princesse Gr', 'Rue Grim']) {
    await r.call(`autocomplete: ${q}`, 'GET', '/v1/search/autocomplete', { key: pk, query: { query: q, near: ll(CASINO) } });
  }
  await r.call('autocomplete, layers and limit', 'GET', '/v1/search/autocomplete', { key: pk, query: { query: 'Av', near: ll(PALACE), layers: 'address,place', limit: 3 } });
  await r.call('autocomplete click', 'POST', '/v1/search/autocomplete/click', { key: pk, body: { query: 'Casin', selectedIndex: 0 } });
  await r.call('geocode ip (caller)', 'GET', '/v1/geocode/ip', { key: pk });
  await r.call('geocode ip given, secret key', 'GET', '/v1/geocode/ip', { key: sk, query: { ip: '8.8.8.8' } });
  await r.call('address validate', 'GET', '/v1/addresses/validate', { key: pk, query: { addressLabel: '1 Main Street', city: 'Springfield', stateCode: 'IL', postalCode: '62701', countryCode: 'US' } });
  await r.call('geocode forward 400: no query', 'GET', '/v1/geocode/forward', { key: pk });
  await r.call('geocode reverse 400: bad coordinates', 'GET', '/v1/geocode/reverse', { key: pk, query: { coordinates: '43.7' } });
  await r.call('geocode forward 400: unknown layer', 'GET', '/v1/geocode/forward', { key: pk, query: { query: 'Monaco', layers: 'street' } });
  await r.call('autocomplete 400: bad limit', 'GET', '/v1/search/autocomplete', { key: pk, query: { query: 'Av', limit: 1000 } });
  await r.call('geocode ip 400', 'GET', '/v1/geocode/ip', { key: sk, query: { ip: 'not-an-ip' } });

  // --- routing ---------------------------------------------------------------------------------------
  const pairs: Array<[Point, Point]> = [[CASINO, PALACE], [PALACE, LARVOTTO], [FONTVIEILLE, CASINO], [PORT, LARVOTTO], [LARVOTTO, FONTVIEILLE]];
  for (const [a, b] of pairs) {
    await r.call(`route distance ${ll(a)} → ${ll(b)}`, 'GET', '/v1/route/distance', { key: pk, query: { origin: ll(a), destination: ll(b), modes: 'car,foot,bike,truck', units: 'metric' } });
  }
  await r.call('route distance, imperial', 'GET', '/v1/route/distance', { key: pk, query: { origin: ll(CASINO), destination: ll(PALACE), modes: 'car', units: 'imperial' } });
  await r.call('route distance off the network', 'GET', '/v1/route/distance', { key: pk, query: { origin: ll(CASINO), destination: ll(PARIS), modes: 'car' } });
  for (const [a, b] of pairs.slice(0, 3)) {
    await r.call(`route directions ${ll(a)} → ${ll(b)}`, 'GET', '/v1/route/directions', { key: pk, query: { locations: `${ll(a)}|${ll(b)}`, mode: 'car', units: 'metric' } });
  }
  await r.call('route directions on foot, in French', 'GET', '/v1/route/directions', { key: pk, query: { locations: `${ll(PALACE)}|${ll(PORT)}|${ll(CASINO)}`, mode: 'foot', lang: 'fr' } });
  await r.call('route directions by bike, polyline6', 'GET', '/v1/route/directions', { key: pk, query: { locations: `${ll(FONTVIEILLE)}|${ll(LARVOTTO)}`, mode: 'bike', geometry: 'polyline6' } });
  const points = [CASINO, PALACE, PORT, LARVOTTO, FONTVIEILLE].map(ll).join('|');
  await r.call('route matrix car', 'GET', '/v1/route/matrix', { key: pk, query: { origins: points, destinations: points, mode: 'car', units: 'metric' } });
  await r.call('route matrix foot', 'GET', '/v1/route/matrix', { key: pk, query: { origins: ll(CASINO), destinations: points, mode: 'foot' } });
  await r.call('route optimize', 'GET', '/v1/route/optimize', { key: pk, query: { locations: `${ll(FONTVIEILLE)}|${ll(LARVOTTO)}|${ll(PALACE)}|${ll(CASINO)}`, mode: 'car' } });
  const trace: Point[] = [];
  for (let i = 0; i <= 10; i++) trace.push({ lat: PALACE.lat + (PORT.lat - PALACE.lat) * (i / 10), lng: PALACE.lng + (PORT.lng - PALACE.lng) * (i / 10) });
  await r.call('route match', 'POST', '/v1/route/match', {
    key: pk, body: { path: trace.map((p, i) => ({ coordinates: ll(p), createdAt: r.at(2000 + i * 10) })), mode: 'foot', units: 'metric', geometry: 'linestring', roadAttributes: 'names,roadClass,speedLimit' },
  });
  await r.call('route distance 400: no destination', 'GET', '/v1/route/distance', { key: pk, query: { origin: ll(CASINO), modes: 'car' } });
  await r.call('route distance 400: bad mode', 'GET', '/v1/route/distance', { key: pk, query: { origin: ll(CASINO), destination: ll(PALACE), modes: 'boat' } });
  await r.call('route matrix 400: bad origins', 'GET', '/v1/route/matrix', { key: pk, query: { origins: 'a|b', destinations: points, mode: 'car' } });
  await r.call('route directions 400: one location', 'GET', '/v1/route/directions', { key: pk, query: { locations: ll(CASINO) } });
  await r.call('route match 400: one point', 'POST', '/v1/route/match', { key: pk, body: { path: [{ coordinates: ll(CASINO) }] } });

  // --- data (ours) -------------------------------------------------------------------------------
  await r.call('data extracts', 'GET', '/v1/data/extracts', { key: sk });
  await r.call('data roads', 'GET', '/v1/data/roads', { key: sk, query: { bbox: '7.423,43.733,7.428,43.737' } });
  await r.call('data map (street view)', 'GET', '/v1/data/map', { key: sk, query: { bbox: '7.41,43.72,7.44,43.75', zoom: 15 } });
  await r.call('data overview', 'GET', '/v1/data/overview', { key: sk });
  await r.call('data roads 400: box too big', 'GET', '/v1/data/roads', { key: sk, query: { bbox: '0,0,10,10' } });
  await r.call('sync region', 'POST', '/v1/sync/region', { key: pk, body: { latitude: CASINO.lat, longitude: CASINO.lng } });
  await r.call('logs', 'POST', '/v1/logs', { key: pk, body: { logs: [{ message: 'replay', level: 'info' }] } });

  // --- deletions, then keys ----------------------------------------------------------------------
  await r.call('beacon DELETE', 'DELETE', `/v1/beacons/${beaconId}`, { key: sk });
  await r.call('beacon DELETE again', 'DELETE', `/v1/beacons/${beaconId}`, { key: sk });
  await r.call('geofence DELETE by tag', 'DELETE', '/v1/geofences/venue/fontvieille', { key: sk });
  await r.call('geofence DELETE by id', 'DELETE', `/v1/geofences/${casinoId}`, { key: sk });
  await r.call('geofence after DELETE', 'GET', `/v1/geofences/${casinoId}`, { key: sk });
  await r.call('webhook DELETE', 'DELETE', `/v1/webhooks/${hookId}`, { key: sk });
  await r.call('webhooks after DELETE', 'GET', '/v1/webhooks', { key: sk });
  await r.call('user DELETE', 'DELETE', '/v1/users/replay-c', { key: sk });
  await r.call('user after DELETE', 'GET', '/v1/users/replay-c', { key: sk });
  await r.call('trip DELETE by id', 'DELETE', `/v1/trips/${tripId}`, { key: sk });
  await r.call('users list at the end', 'GET', '/v1/users', { key: sk, query: { limit: 100 } });
  await r.call('geofences list at the end', 'GET', '/v1/geofences', { key: sk, query: { limit: 100 } });
  await r.call('events list at the end', 'GET', '/v1/events', { key: sk, query: { limit: 100 } });
  const rotated = await r.call('keys rotate (test)', 'POST', '/v1/project/keys/rotate', { key: sk });
  await r.call('old secret key after rotation', 'GET', '/v1/users', { key: sk });
  const newSk = (rotated.body?.keys as Array<{ key?: string; kind?: string }> | undefined)?.find((x) => x.key?.startsWith('prj_test_sk_'))?.key;
  await r.call('new secret key after rotation', 'GET', '/v1/users', { key: newSk ?? sk, query: { limit: 1 } });
  await r.call('keys rotate with a publishable key', 'POST', '/v1/project/keys/rotate', { key: k.livePk });
}
