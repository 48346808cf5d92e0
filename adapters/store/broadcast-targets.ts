// Which announcements a write makes to other processes sharing the store: one per collection declared
// `broadcast` and project environment the write touches, with the ids it put or deleted there. Both
// stores announce in these units (PostgreSQL as NOTIFY payloads, SQLite as change-log rows).
import type { CollectionSpec, Scope, WriteOp } from '../../ports/store';

export interface BroadcastTarget {
  collection: string;
  scope: Scope;
  ids: string[];
}

export function broadcastTargets(ops: readonly WriteOp[], specOf: (collection: string) => CollectionSpec | undefined): BroadcastTarget[] {
  let byTarget: Map<string, BroadcastTarget> | undefined;
  for (const op of ops) {
    if (!specOf(op.collection)?.broadcast) continue;
    byTarget ??= new Map();
    const key = `${op.collection}\u0000${op.scope.projectId}\u0000${op.scope.live}`;
    let target = byTarget.get(key);
    if (!target) byTarget.set(key, (target = { collection: op.collection, scope: op.scope, ids: [] }));
    target.ids.push(op.op === 'put' ? op.doc._id : op.id);
  }
  return byTarget ? [...byTarget.values()] : [];
}
