// userJson() and eventJson() serialise a tracked user and its events once, for both the track answer and
// their stored rows (#14). The texts must be what serialising the objects would give: the shown text byte
// for byte JSON.stringify(publicView / publicEvent), the stored text a document equal to the object
// without its revision (its hidden fields appended).
import { REVISION_FIELD, withoutRevision, type Doc } from '../../ports/store';
import { publicView } from '../../core/model/views';
import { publicEvent } from '../../core/model/views';
import { eventJson, userJson } from '../../server/features/track/doc-json';

/** A user-shaped document with any extra fields: the serialiser takes every document, declared or not. */
function user(extra: Record<string, unknown>): Doc {
  return {
    _id: '6563f1a2b3c4d5e6f7a8b900', createdAt: '2026-11-23T00:00:00.000Z', updatedAt: '2026-11-23T00:01:00.000Z', live: false,
    deviceId: 'd-1', userId: 'u "quoted" é', location: { type: 'Point', coordinates: [2.35, 48.85] }, locationAccuracy: 5,
    geofences: [{ _id: 'g1', tag: 'shop', metadata: { a: [1, null] } }], actualUpdatedAt: '2026-11-23T00:01:00.000Z', _visits: [],
    ...extra,
  };
}

const cases: Array<[string, Doc]> = [
  ['hidden fields and a revision', user({ _visits: [{ geofenceId: 'g1', enteredAt: '2026-11-23T00:00:00.000Z' }], [REVISION_FIELD]: 7, _trip: { id: 't' } })],
  ['a hidden field first in key order', (() => { const { _visits: _v, ...rest } = user({}); return { _visits: [], ...rest }; })()],
  ['no hidden field but the revision', (() => { const u = user({ [REVISION_FIELD]: 2 }); delete u._visits; return u; })()],
  ['undefined values (left out, as JSON.stringify does)', user({ description: undefined, _hiddenUndefined: undefined })],
  // The track path's users list frozen geofence entries shared by every user inside (their texts are kept).
  ['frozen geofence entries among plain ones and holes', user({
    geofences: [Object.freeze({ _id: 'g1', tag: 'shop "q"', metadata: { a: [1, null] } }), { _id: 'g2' }, undefined, Object.freeze({ _id: 'g3', geometryRadius: 20 })],
    _visits: [Object.freeze({ geofenceId: 'g1', enteredAt: 'x' })],
  })],
  ['a frozen empty list and a frozen member', user({ geofences: Object.freeze([]), location: Object.freeze({ type: 'Point', coordinates: [1, 2] }) })],
];

test.each(cases)('%s', (_name, u) => {
  // Twice: the second time frozen objects' texts come from what the first kept.
  for (let round = 0; round < 2; round++) {
    const { shown, stored } = userJson(u);
    expect(shown).toBe(JSON.stringify(publicView(u)));
    expect(JSON.parse(stored)).toEqual(JSON.parse(JSON.stringify(withoutRevision(u))));
    expect(stored).not.toContain(`"${REVISION_FIELD}"`);
  }
});

test.each([
  ['a geofence event', { _id: 'e1', type: 'user.entered_geofence', createdAt: 'c', updatedAt: 'u', live: false, user: { _id: 'x' }, geofence: { tag: 't' }, confidence: 3, userRef: 'x' }],
  ['hidden fields first', { userRef: 'x', updatedAt: 'u', _id: 'e2', type: 'user.started_trip', trip: { externalId: 'é "q"' } }],
  ['no hidden field', { _id: 'e3', type: 'user.exited_geofence', duration: 1.5 }],
  ['a frozen geofence', { _id: 'e4', type: 'user.entered_geofence', geofence: Object.freeze({ _id: 'g', metadata: { n: 1 } }), userRef: 'x' }],
])('an event: %s', (_name, e) => {
  const { shown, stored } = eventJson(e as never);
  expect(shown).toBe(JSON.stringify(publicEvent(e as never)));
  expect(JSON.parse(stored)).toEqual(e);
});
