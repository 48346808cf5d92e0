// waymark project create|list|keys|rotate-keys|settings
import type { Services } from '../../app';
import type { IssuedKey } from '../../api/projects/api-keys';
import { keyLabel } from '../../api/projects/api-keys';
import { readSettingsPatch } from '../../api/projects/project-settings';
import { flag, unknownSubcommand, UsageError, type ParsedArgs } from '../args';
import type { CliOutput } from '../output';

export const PROJECT_USAGE = `waymark project create --name NAME [--json]
waymark project list [--json]
waymark project keys [--project ID|NAME] [--json]
waymark project rotate-keys [--project ID|NAME] [--json]
waymark project settings [--project ID|NAME] [--set name=value ...] [--json]`;

export function printIssuedKeys(out: CliOutput, keys: IssuedKey[]): void {
  for (const k of keys) out.print(`  ${keyLabel(k.record.live, k.record.kind).padEnd(18)} ${k.key}`);
  out.print('  Secret keys are stored hashed and cannot be shown again: keep them now.');
}

/** The project named by --project (id or name), or the only one there is. */
export async function resolveProject(s: Services, args: ParsedArgs): Promise<{ _id: string; name: string }> {
  const wanted = flag(args, 'project');
  if (wanted) {
    const found = await s.projects.find(wanted);
    if (!found) throw new UsageError(`No project "${wanted}" (give its id or name; see: waymark project list)`);
    return found;
  }
  const all = await s.store.projects.list();
  if (all.length === 1) return all[0];
  if (all.length === 0) throw new UsageError('No project exists yet: run waymark project create --name NAME');
  throw new UsageError('Several projects exist: choose one with --project ID|NAME');
}

export async function projectCommand(s: Services, args: ParsedArgs, out: CliOutput): Promise<number> {
  const sub = args.words[1];
  switch (sub) {
    case 'create': {
      const name = flag(args, 'name');
      if (!name || name === 'true') throw new UsageError('project create needs --name NAME');
      // Operators find projects by name (--project NAME): names are unique, ignoring case and blanks.
      // Checked here, where names are chosen; a race of two concurrent CLI runs is not guarded.
      const wanted = name.trim().toLowerCase();
      const twin = (await s.store.projects.list()).find((p) => p.name.trim().toLowerCase() === wanted);
      if (twin) {
        process.stderr.write(`waymark: a project named "${twin.name}" already exists (${twin._id})\n`);
        return 1;
      }
      const created = await s.projects.create(name);
      out.data({ id: created.id, name: created.name, keys: Object.fromEntries(created.keys.map((k) => [keyLabel(k.record.live, k.record.kind), k.key])) });
      out.print(`Created project "${created.name}" (${created.id}) with keys:`);
      printIssuedKeys(out, created.keys);
      return 0;
    }
    case 'list': {
      const all = await s.store.projects.list();
      out.data(all.map((p) => ({ id: p._id, name: p.name, createdAt: p.createdAt })));
      if (all.length === 0) out.print('No projects.');
      for (const p of all) out.print(`${p._id}  ${p.name}  (created ${p.createdAt})`);
      return 0;
    }
    case 'keys': {
      const project = await resolveProject(s, args);
      const keys = await s.store.projects.keys(project._id);
      out.data(keys.map((k) => ({ live: k.live, kind: k.kind, key: k.kind === 'publishable' ? k.display : null, prefix: k.display, createdAt: k.createdAt })));
      out.print(`Keys of "${project.name}" (${project._id}):`);
      for (const k of keys) out.print(`  ${keyLabel(k.live, k.kind).padEnd(18)} ${k.display}${k.kind === 'secret' ? '  (hashed; rotate-keys issues new ones)' : ''}`);
      return 0;
    }
    case 'rotate-keys': {
      const project = await resolveProject(s, args);
      const keys = await s.projects.rotateKeys(project._id);
      out.data({ id: project._id, keys: Object.fromEntries(keys.map((k) => [keyLabel(k.record.live, k.record.kind), k.key])) });
      out.print(`New keys for "${project.name}"; the old ones no longer work:`);
      printIssuedKeys(out, keys);
      return 0;
    }
    case 'settings': {
      const project = await resolveProject(s, args);
      const patch: Record<string, unknown> = {};
      for (const pair of args.flags.get('set') ?? []) {
        const eq = pair.indexOf('=');
        if (eq <= 0) throw new UsageError(`--set takes name=value, got "${pair}"`);
        patch[pair.slice(0, eq)] = pair.slice(eq + 1);
      }
      const settings = Object.keys(patch).length
        ? await s.projects.updateSettings(project._id, readSettingsPatch(patch))
        : await s.projects.settings(project._id);
      out.data(settings);
      for (const [name, value] of Object.entries(settings)) out.print(`${name.padEnd(26)} ${String(value)}`);
      return 0;
    }
    default:
      throw unknownSubcommand('project', sub, PROJECT_USAGE);
  }
}
