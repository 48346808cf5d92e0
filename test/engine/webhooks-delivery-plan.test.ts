// From events to requests: type filters, single versus batched (≤ 5) payloads, disabled webhooks,
// and runs of one user's events for redelivery.
import { chunkForWebhook, planDeliveries, runsByUser, typeMatches, type WebhookEvent, type WebhookSubscription } from '../../core/webhooks/delivery-plan';

const user = { _id: 'u1', deviceId: 'd1' };
const ev = (i: number, type = 'user.entered_geofence'): WebhookEvent => ({ _id: `e${i}`, type });

describe('typeMatches', () => {
  test.each([
    ['null means all', 'user.entered_geofence', null, true],
    ['exact', 'user.entered_geofence', ['user.entered_geofence'], true],
    ['other exact', 'user.exited_geofence', ['user.entered_geofence'], false],
    ['prefix', 'user.entered_region_country', ['user.entered_*'], true],
    ['prefix does not match elsewhere', 'user.exited_region_country', ['user.entered_*'], false],
    ['one of several', 'user.started_trip', ['user.entered_geofence', 'user.*_trip'], false],
    ['bare star', 'anything', ['*'], true],
    ['empty list sends nothing', 'user.entered_geofence', [], false],
  ])('%s', (_name, type, patterns, expected) => {
    expect(typeMatches(type, patterns)).toBe(expected);
  });
});

describe('chunkForWebhook', () => {
  test.each([
    ['single, 3 events', 'single' as const, 3, [1, 1, 1]],
    ['batch, 3 events', 'batch' as const, 3, [3]],
    ['batch, 5 events', 'batch' as const, 5, [5]],
    ['batch, 11 events', 'batch' as const, 11, [5, 5, 1]],
    ['no events', 'batch' as const, 0, []],
  ])('%s', (_name, mode, count, shape) => {
    const events = Array.from({ length: count }, (_, i) => ev(i));
    const planned = chunkForWebhook('w', mode, events, user);
    expect(planned.map((p) => p.eventIds.length)).toEqual(shape);
    expect(planned.flatMap((p) => p.eventIds)).toEqual(events.map((e) => e._id));
    for (const p of planned) {
      if (mode === 'single') expect(p.payload).toEqual({ event: events.find((e) => e._id === p.eventIds[0]), user });
      else expect(p.payload).toEqual({ events: p.eventIds.map((id) => events.find((e) => e._id === id)), user });
    }
  });
});

describe('planDeliveries', () => {
  const hooks: WebhookSubscription[] = [
    { _id: 'all', enabled: true, mode: 'single', types: null },
    { _id: 'exits', enabled: true, mode: 'batch', types: ['user.exited_geofence'] },
    { _id: 'paused', enabled: false, mode: 'single', types: null },
  ];

  test('each enabled webhook gets the events it asked for, in order; a paused one gets nothing', () => {
    const events = [ev(1), ev(2, 'user.exited_geofence'), ev(3, 'user.exited_geofence')];
    const planned = planDeliveries(hooks, events, user);
    expect(planned.map((p) => [p.webhookId, p.eventIds, p.eventTypes])).toEqual([
      ['all', ['e1'], ['user.entered_geofence']],
      ['all', ['e2'], ['user.exited_geofence']],
      ['all', ['e3'], ['user.exited_geofence']],
      ['exits', ['e2', 'e3'], ['user.exited_geofence', 'user.exited_geofence']],
    ]);
  });

  test('no events, no requests; no matching type, no request', () => {
    expect(planDeliveries(hooks, [], user)).toEqual([]);
    expect(planDeliveries([hooks[1]], [ev(1)], user)).toEqual([]);
  });
});

describe('runsByUser', () => {
  test.each([
    ['empty', [], []],
    ['one user', ['a', 'a', 'a'], [['a', 'a', 'a']]],
    ['alternating users keep their order', ['a', 'b', 'b', 'a'], [['a'], ['b', 'b'], ['a']]],
  ])('%s', (_name, items, runs) => {
    expect(runsByUser(items, (x) => x)).toEqual(runs);
  });
});
