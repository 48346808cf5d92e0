// How the dashboard says things: counts with the right plural, and event types as sentences rather
// than the API's dotted names (which stay visible in each event's JSON and as the filter values).

/**
 * "1204" → "1,204", "-12345.5" → "-12,345.5". Written out rather than `toLocaleString('en')`: the first
 * call of that loads ICU's number formats (28 ms in the trace of the map's first task) and each later
 * one builds a formatter anew.
 */
export function thousands(n: number): string {
  const [whole, fraction] = String(n).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, ',');
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}

/** "1 user", "2 users", "1,204 geofences". */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${thousands(n)} ${n === 1 ? one : many}`;
}

const EVENT_LABELS: Record<string, string> = {
  'user.entered_geofence': 'Entered geofence',
  'user.exited_geofence': 'Exited geofence',
  'user.dwelled_in_geofence': 'Dwelled in geofence',
  'user.entered_place': 'Entered place',
  'user.exited_place': 'Exited place',
  'user.nearby_place_chain': 'Near a chain',
  'user.entered_region_country': 'Entered country',
  'user.exited_region_country': 'Left country',
  'user.entered_region_state': 'Entered state',
  'user.exited_region_state': 'Left state',
  'user.entered_region_dma': 'Entered DMA',
  'user.exited_region_dma': 'Left DMA',
  'user.entered_region_postal_code': 'Entered postal code',
  'user.exited_region_postal_code': 'Left postal code',
  'user.entered_beacon': 'Entered beacon range',
  'user.exited_beacon': 'Left beacon range',
  'user.started_trip': 'Started trip',
  'user.updated_trip': 'Trip updated',
  'user.approaching_trip_destination': 'Approaching destination',
  'user.arrived_at_trip_destination': 'Arrived at destination',
  'user.stopped_trip': 'Trip stopped',
  'user.started_commuting': 'Started commuting',
  'user.stopped_commuting': 'Stopped commuting',
  'user.failed_fraud': 'Failed fraud checks',
};

/** "Entered geofence"; an unknown type (a conversion's own name) as it was sent. */
export function eventLabel(type: string): string {
  return EVENT_LABELS[type] ?? type.replace(/^user\./, '').replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
}
