// The environment key's exact spelling. Lock names built from it (trip, user, webhook lease) are shared
// between gateway nodes, which may run different versions during a rolling upgrade: a change here would
// let two nodes hold "the same" lock at once.
import type { Scope } from '../../ports/store';
import { scopeKey } from '../../adapters/store/scope-key';
import { userLockKey } from '../../server/track-step';

const liveScope: Scope = { projectId: 'p1', live: true };
const testScope: Scope = { projectId: 'p1', live: false };

it.each<[string, Scope, string[], string]>([
  ['live, no parts', liveScope, [], 'p1:1'],
  ['test, no parts', testScope, [], 'p1:0'],
  ['live, one part', liveScope, ['wh1'], 'p1:1:wh1'],
  ['test, two parts', testScope, ['device:d1', 'x'], 'p1:0:device:d1:x'],
])('%s', (_name, scope, parts, expected) => {
  expect(scopeKey(scope, ...parts)).toBe(expected);
});

it('the user lock of track keeps its spelling', () => {
  expect(userLockKey(liveScope, 'u1', 'd1')).toBe('user:p1:1:u1');
  expect(userLockKey(testScope, undefined, 'd1')).toBe('user:p1:0:device:d1');
});
