// The track path hands the webhook outbox the JSON it already made of the user and of each event
// (#14); serialisePayload() assembles a row's payload from those texts. The result must be byte for byte what
// JSON.stringify makes of the payload object, for both modes, a shared (null) user, and an event the
// texts do not cover (serialised then).
import { chunkForWebhook, type WebhookEvent } from '../../core/webhooks/delivery-plan';
import { serialisePayload } from '../../server/features/webhooks/outbox-bundle';

const user = { _id: 'u1', userId: 'Zoë "quoted"', geofences: [{ _id: 'g1', metadata: { n: 1.5, list: [null, true] } }], location: { type: 'Point', coordinates: [2.35, 48.85] } };
const events: WebhookEvent[] = [1, 2, 3].map((i) => ({
  _id: `e${i}`, type: i === 2 ? 'user.exited_geofence' : 'user.entered_geofence', createdAt: '2026-11-24T00:00:00.000Z',
  user: { _id: 'u1' }, geofence: { _id: `g${i}`, description: `Shop ${i} – é`, metadata: { i } }, confidence: 3,
}));
// The texts a caller made: every event's but the last one's.
const known = new Map(events.slice(0, 2).map((e) => [e, JSON.stringify(e)]));
const texts = { user: JSON.stringify(user), event: (e: WebhookEvent) => known.get(e) ?? JSON.stringify(e) };

test.each([
  ['single mode', chunkForWebhook('w1', 'single', events, user)],
  ['batch mode', chunkForWebhook('w1', 'batch', events, user)],
  ['single mode, user shared (null in the row)', chunkForWebhook('w1', 'single', events, null)],
  ['batch mode, user shared (null in the row)', chunkForWebhook('w1', 'batch', events, null)],
])('%s: the same bytes as JSON.stringify', (_name, planned) => {
  expect(planned.length).toBeGreaterThan(0);
  for (const p of planned) expect(serialisePayload(p.payload, texts)).toBe(JSON.stringify(p.payload));
});

test('texts are what is written: a text standing for an event is used as it is', () => {
  const [p] = chunkForWebhook('w1', 'single', events.slice(0, 1), user);
  const marked = { user: '{"marked":"user"}', event: () => '{"marked":"event"}' };
  expect(serialisePayload(p.payload, marked)).toBe('{"event":{"marked":"event"},"user":{"marked":"user"}}');
  expect(serialisePayload(p.payload, undefined)).toBe(JSON.stringify(p.payload));
});
