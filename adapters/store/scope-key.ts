// The one spelling of a project environment as a string key: `projectId:1` (live) or `projectId:0`
// (test), then `:part` for each part. An environment's in-memory maps and its lock names share it so
// that no module invents its own. Lock keys are shared between gateway nodes, which may run different
// versions during a rolling upgrade: the format must not change, and test/adapters/scope-key.test.ts
// pins it.
import type { Scope } from '../../ports/store';

export function scopeKey(scope: Scope, ...parts: string[]): string {
  let key = `${scope.projectId}:${scope.live ? 1 : 0}`;
  for (const part of parts) key += `:${part}`;
  return key;
}
