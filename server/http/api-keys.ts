// API keys: four per project. Keys are random and only their sha256 is used for lookup; secret keys are
// never stored in the clear, publishable ones are (they ship inside apps anyway).
import { createHash, randomBytes } from 'node:crypto';
import type { ApiKeyRecord, KeyKind } from '../../ports/store';

export interface IssuedKey {
  key: string;
  record: ApiKeyRecord;
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

function keyPrefix(live: boolean, kind: KeyKind): string {
  return `prj_${live ? 'live' : 'test'}_${kind === 'publishable' ? 'pk' : 'sk'}_`;
}

export function issueKey(projectId: string, live: boolean, kind: KeyKind, at: Date): IssuedKey {
  const key = keyPrefix(live, kind) + randomBytes(20).toString('hex');
  return {
    key,
    record: {
      hash: hashKey(key),
      projectId,
      live,
      kind,
      display: kind === 'publishable' ? key : `${key.slice(0, 16)}…`,
      createdAt: at.toISOString(),
    },
  };
}

/** The four keys of a project, in a fixed order. */
export function issueProjectKeys(projectId: string, at: Date): IssuedKey[] {
  return [
    issueKey(projectId, false, 'publishable', at),
    issueKey(projectId, true, 'publishable', at),
    issueKey(projectId, false, 'secret', at),
    issueKey(projectId, true, 'secret', at),
  ];
}

export function keyLabel(live: boolean, kind: KeyKind): string {
  return `${live ? 'live' : 'test'} ${kind}`;
}
