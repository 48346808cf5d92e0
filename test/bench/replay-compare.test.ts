// The replay harness's comparison (bench/replay): what it forgives between two runs (ids, keys, tokens,
// the server's clock) and what it must still report (a changed value, a reference to another id, a
// scripted time answered differently, a missing pair).
import { comparePairs } from '../../bench/replay/compare';
import { normaliseRecording } from '../../bench/replay/normalise';
import type { RecordedPair, Recording } from '../../bench/replay/recorder';

const BASE = Date.UTC(2026, 10, 26, 20, 0, 0);

function pair(n: number, body: unknown, path = '/v1/users'): RecordedPair {
  return { n, label: `pair ${n}`, method: 'GET', path, status: 200, contentType: 'application/json', body };
}

function recording(base: number, pairs: RecordedPair[]): Recording {
  return { source: 'test', dataDir: '/tmp/waymark-replay-x', base, pairs };
}

/** Two runs of one build: other ids, keys and server times, the same scripted time relative to each base. */
function run(base: number, id: string, other: string, key: string, now: string): Recording {
  return recording(base, [
    pair(1, { user: { _id: id, createdAt: now, updatedAt: new Date(base + 180_000).toISOString() }, key }),
    pair(2, { events: [{ user: { _id: id } }, { user: { _id: other } }] }, `/v1/users/${id}`),
  ]);
}

const first = run(BASE, '6b08a9343930da6b3966b84f', '6b08a9343930da6b3966b850', `prj_test_sk_${'a'.repeat(40)}`, '2026-11-26T21:00:01.123Z');
const second = run(BASE + 7_000, '6b08b0003930da6b39000001', '6b08b0003930da6b39000002', `prj_test_sk_${'b'.repeat(40)}`, '2026-11-26T21:00:08.456Z');

test('two runs differing only in ids, keys and the server clock are identical', () => {
  const a = normaliseRecording(first);
  expect(a[0].body).toEqual({ user: { _id: '<id#1>', createdAt: '<now>', updatedAt: '<base+180s>' }, key: '<key:test_sk#1>' });
  expect(a[1].path).toBe('/v1/users/<id#1>');
  expect(comparePairs(a, normaliseRecording(second))).toEqual({ same: 2, differing: [] });
});

test('a reference to another id, a scripted time off by a second and a changed value are reported', () => {
  const changed = recording(second.base, [
    pair(1, { user: { _id: '6b08b0003930da6b39000001', createdAt: 'x', updatedAt: new Date(second.base + 181_000).toISOString() }, key: `prj_test_sk_${'b'.repeat(40)}` }),
    // The second event now names the first user: same shape, a different reference.
    pair(2, { events: [{ user: { _id: '6b08b0003930da6b39000001' } }, { user: { _id: '6b08b0003930da6b39000001' } }] }, '/v1/users/6b08b0003930da6b39000001'),
  ]);
  const { same, differing } = comparePairs(normaliseRecording(first), normaliseRecording(changed));
  expect(same).toBe(0);
  expect(differing.map((d) => d.details)).toEqual([
    ['answer.user.createdAt: "<now>" → "x"', 'answer.user.updatedAt: "<base+180s>" → "<base+181s>"'],
    ['answer.events[1].user._id: "<id#2>" → "<id#1>"'],
  ]);
});

test('a pair one recording lacks is reported, and a measured duration is not', () => {
  const a = recording(BASE, [pair(1, { checks: { store: { ok: true, ms: 3 } } }, '/ready'), pair(2, {})]);
  const b = recording(BASE, [pair(1, { checks: { store: { ok: true, ms: 40 } } }, '/ready')]);
  expect(comparePairs(normaliseRecording(a), normaliseRecording(b)).differing).toEqual([{ n: 2, label: 'pair 2', request: 'GET /v1/users', details: ['absent from after'] }]);
});

test('a pair with more differences than are shown says how many it leaves out', () => {
  const fields = (v: number) => Object.fromEntries(Array.from({ length: 15 }, (_, i) => [`f${i}`, v]));
  const { differing } = comparePairs(normaliseRecording(recording(BASE, [pair(1, fields(1))])), normaliseRecording(recording(BASE, [pair(1, fields(2))])));
  expect(differing[0].details).toHaveLength(13);
  expect(differing[0].details[11]).toBe('answer.f11: 1 → 2');
  expect(differing[0].details[12]).toBe('… and 3 more differences in this pair');
});
