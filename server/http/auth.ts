// API-key authentication. The Authorization header carries the key itself ("Bearer <key>" also works).
// Lookups are cached briefly: a key check is on every request, and a short TTL bounds how long another
// node keeps honouring a rotated key.
import type { KeyKind, Store } from '../../ports/store';
import { hashKey } from './api-keys';
import { projectSettings } from '../../core/input/project-settings';
import type { ProjectSettings } from '../../core/types';
import { Forbidden, Unauthorized } from './errors';

export type AuthLevel = 'publishable' | 'secret';

export interface AuthContext {
  projectId: string;
  live: boolean;
  kind: KeyKind;
  settings: ProjectSettings;
  /** Identifies the key for rate limiting without keeping the key itself around. */
  keyHash: string;
}

const CACHE_TTL_MS = 30_000;
const MAX_CACHE = 10_000;

export function keyFromHeader(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  const key = /^bearer\s+/i.test(trimmed) ? trimmed.replace(/^bearer\s+/i, '') : trimmed;
  return key === '' ? undefined : key;
}

export class Authenticator {
  private readonly cache = new Map<string, { context: AuthContext | null; expiresMs: number }>();

  constructor(private readonly store: Store) {}

  /** Drops cached contexts of a project (keys rotated, settings changed). */
  forget(projectId: string): void {
    for (const [hash, entry] of this.cache) {
      if (entry.context?.projectId === projectId) this.cache.delete(hash);
    }
  }

  /** Drops every cached context (change notices were interrupted: anything may have changed). */
  forgetAll(): void {
    this.cache.clear();
  }

  async authenticate(header: string | undefined, level: AuthLevel): Promise<AuthContext> {
    const key = keyFromHeader(header);
    if (!key) throw new Unauthorized();
    const hash = hashKey(key);
    const now = Date.now();
    let entry = this.cache.get(hash);
    if (!entry || entry.expiresMs < now) {
      entry = { context: await this.load(hash), expiresMs: now + CACHE_TTL_MS };
      if (this.cache.size >= MAX_CACHE) this.cache.clear();
      this.cache.set(hash, entry);
    }
    const context = entry.context;
    if (!context) throw new Unauthorized('Unauthorized: unknown API key');
    if (level === 'secret' && context.kind !== 'secret') {
      throw new Forbidden('Forbidden: this endpoint needs a secret key; a publishable key was sent');
    }
    return context;
  }

  private async load(hash: string): Promise<AuthContext | null> {
    const record = await this.store.projects.keyByHash(hash);
    if (!record) return null;
    const project = await this.store.projects.get(record.projectId);
    if (!project) return null;
    return { projectId: record.projectId, live: record.live, kind: record.kind, settings: projectSettings(project.settings), keyHash: hash };
  }
}
