// Projects and their keys: used by the CLI and by first start. Settings changes go through here too so
// the auth cache can be told.
import type { ApiKeyRecord, Store } from '../../../ports/store';
import { newObjectId } from '../../../core/object-id';
import type { ProjectSettings } from '../../../core/types';
import { issueKey, issueProjectKeys, type IssuedKey } from '../../http/api-keys';
import { projectSettings } from '../../../core/input/project-settings';

export interface CreatedProject {
  id: string;
  name: string;
  keys: IssuedKey[];
}

export class ProjectService {
  private readonly listeners: Array<(projectId: string) => void> = [];

  constructor(private readonly store: Store) {}

  /** Called whenever a project's keys or settings change (auth and settings caches listen). */
  onChange(listener: (projectId: string) => void): void {
    this.listeners.push(listener);
  }

  private changed(projectId: string): void {
    for (const l of this.listeners) l(projectId);
  }

  async create(name: string, now = new Date()): Promise<CreatedProject> {
    const id = newObjectId(now);
    const keys = issueProjectKeys(id, now);
    await this.store.projects.create({ _id: id, name, createdAt: now.toISOString(), settings: {} }, keys.map((k) => k.record));
    return { id, name, keys };
  }

  async rotateKeys(projectId: string, now = new Date()): Promise<IssuedKey[]> {
    const project = await this.store.projects.get(projectId);
    if (!project) throw new Error(`no project with id ${projectId}`);
    const keys = issueProjectKeys(projectId, now);
    await this.store.projects.replaceKeys(projectId, keys.map((k) => k.record));
    this.changed(projectId);
    return keys;
  }

  /**
   * New publishable and secret keys for one environment, the other's kept: a test secret key can rotate
   * test keys without ever seeing live ones (the dashboard's "rotate keys").
   */
  async rotateEnvironmentKeys(projectId: string, live: boolean, now = new Date()): Promise<IssuedKey[]> {
    const issued = await this.store.withLock(JSON.stringify(['project-keys', projectId]), async () => {
      const kept = (await this.store.projects.keys(projectId)).filter((k) => k.live !== live);
      const fresh = [issueKey(projectId, live, 'publishable', now), issueKey(projectId, live, 'secret', now)];
      await this.store.projects.replaceKeys(projectId, [...kept, ...fresh.map((k) => k.record)]);
      return fresh;
    });
    this.changed(projectId);
    return issued;
  }

  /**
   * The keys of one environment as stored: a publishable key whole (it ships inside apps), a secret key
   * only as its prefix (the store keeps its hash). Publishable first.
   */
  async environmentKeys(projectId: string, live: boolean): Promise<ApiKeyRecord[]> {
    const keys = (await this.store.projects.keys(projectId)).filter((k) => k.live === live);
    return keys.sort((a, b) => (a.kind === b.kind ? a.createdAt.localeCompare(b.createdAt) : a.kind === 'publishable' ? -1 : 1));
  }

  async settings(projectId: string): Promise<ProjectSettings> {
    const project = await this.store.projects.get(projectId);
    if (!project) throw new Error(`no project with id ${projectId}`);
    return projectSettings(project.settings);
  }

  async updateSettings(projectId: string, patch: Partial<ProjectSettings>): Promise<ProjectSettings> {
    // Read, merge, write under a lock: two PATCHes of different settings at once must not undo each other.
    const next = await this.store.withLock(JSON.stringify(['project-settings', projectId]), async () => {
      const project = await this.store.projects.get(projectId);
      if (!project) throw new Error(`no project with id ${projectId}`);
      const merged = { ...project.settings, ...patch };
      await this.store.projects.updateSettings(projectId, merged);
      return merged;
    });
    this.changed(projectId);
    return projectSettings(next);
  }

  /**
   * Finds a project by id, or by exact name when only one project has it: names need not be unique, and
   * picking one of several silently would let `rotate-keys --project NAME` rotate the wrong project.
   */
  async find(idOrName: string): Promise<{ _id: string; name: string } | undefined> {
    const all = await this.store.projects.list();
    const byId = all.find((p) => p._id === idOrName);
    if (byId) return byId;
    const named = all.filter((p) => p.name === idOrName);
    if (named.length > 1) throw new Error(`several projects are named "${idOrName}" (${named.map((p) => p._id).join(', ')}): give the id`);
    return named[0];
  }
}
