// userJson() serialises a tracked user once for both its answer and its stored row (#14). The texts must
// be what serialising the objects would give: the shown text byte for byte JSON.stringify(publicView),
// the stored text a document equal to the user without its revision (its hidden fields appended).
import { REVISION_FIELD, withoutRevision } from '../../adapters/store/port';
import { publicView } from '../../gateway/api/collections';
import type { UserDoc } from '../../gateway/api/track/track-service';
import { userJson } from '../../gateway/api/track/user-json';

function user(extra: Record<string, unknown>): UserDoc {
  return {
    _id: '6563f1a2b3c4d5e6f7a8b900', createdAt: '2026-11-23T00:00:00.000Z', updatedAt: '2026-11-23T00:01:00.000Z', live: false,
    deviceId: 'd-1', userId: 'u "quoted" é', location: { type: 'Point', coordinates: [2.35, 48.85] }, locationAccuracy: 5,
    geofences: [{ _id: 'g1', tag: 'shop', metadata: { a: [1, null] } }], actualUpdatedAt: '2026-11-23T00:01:00.000Z', _visits: [],
    ...extra,
  } as UserDoc;
}

const cases: Array<[string, UserDoc]> = [
  ['hidden fields and a revision', user({ _visits: [{ geofenceId: 'g1', enteredAt: '2026-11-23T00:00:00.000Z' }], [REVISION_FIELD]: 7, _trip: { id: 't' } })],
  ['a hidden field first in key order', { _visits: [1], ...user({}) } as UserDoc],
  ['no hidden field but the revision', (() => { const u = user({ [REVISION_FIELD]: 2 }) as Record<string, unknown>; delete u._visits; return u as UserDoc; })()],
  ['undefined values (left out, as JSON.stringify does)', user({ description: undefined, _hiddenUndefined: undefined })],
];

test.each(cases)('%s', (_name, u) => {
  const { shown, stored } = userJson(u);
  expect(shown).toBe(JSON.stringify(publicView(u)));
  expect(JSON.parse(stored)).toEqual(JSON.parse(JSON.stringify(withoutRevision(u))));
  expect(stored).not.toContain(`"${REVISION_FIELD}"`);
});
