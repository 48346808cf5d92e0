// waymark project create|list|keys|rotate-keys|settings
import type { StoreCommandParts } from '../store-commands';
import type { IssuedKey } from '../../http/api-keys';
import { keyLabel } from '../../http/api-keys';
import { readSettingsPatch } from '../../../core/input/project-settings';
import readline from 'node:readline/promises';
import { environmentFlag, flag, hasFlag, NotFoundError, unknownSubcommand, UsageError, type ParsedArgs } from '../args';
import type { CliOutput } from '../output';

export const PROJECT_USAGE = `waymark project create --name NAME [--json]
waymark project list [--json]
waymark project keys [--project ID|NAME] [--json]
waymark project rotate-keys [--project ID|NAME] [--env test|live] [--yes] [--json]
waymark project settings [--project ID|NAME] [--set name=value ...] [--json]
  (without --project: the only project, else the one named "default"; rotate-keys replaces the publishable
   and secret key of one environment, test unless --env live, after asking unless --yes)`;

export function printIssuedKeys(out: CliOutput, keys: IssuedKey[]): void {
  for (const k of keys) out.print(`  ${keyLabel(k.record.live, k.record.kind).padEnd(18)} ${k.key}`);
  out.print('  Secret keys are stored hashed and cannot be shown again: keep them now.');
}

/**
 * The project a command works on: the one named by --project (id or name); without it the only project,
 * else the one named "default" (the one the first `serve` makes). Several projects and none of them
 * "default" is a usage error: guessing would let a command change the wrong project.
 */
export async function resolveProject(s: StoreCommandParts, args: ParsedArgs): Promise<{ _id: string; name: string }> {
  const wanted = flag(args, 'project');
  if (wanted !== undefined) {
    if (wanted === 'true') throw new UsageError('--project needs an id or a name');
    const found = await s.projects.find(wanted);
    if (!found) throw new NotFoundError(`no project "${wanted}" (give its id or name; see: waymark project list)`);
    return found;
  }
  const all = await s.store.projects.list();
  if (all.length === 1) return all[0];
  if (all.length === 0) throw new NotFoundError('no project exists yet: run waymark project create --name NAME');
  const named = all.filter((p) => p.name === 'default');
  if (named.length === 1) return named[0];
  throw new UsageError(`several projects exist and none is named "default": choose one with --project ID|NAME (${all.map((p) => p.name).join(', ')})`);
}

/**
 * Asks on the terminal before a change that breaks clients; --yes answers for scripts. Without a
 * terminal and without --yes nothing is asked and nothing changes (exit 2).
 */
async function confirmed(args: ParsedArgs, what: string, question: string): Promise<boolean> {
  if (hasFlag(args, 'yes')) return true;
  if (!process.stdin.isTTY) throw new UsageError(`${what} and asks first: run it at a terminal, or add --yes`);
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(`${question} [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

export async function projectCommand(s: StoreCommandParts, args: ParsedArgs, out: CliOutput): Promise<number> {
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
      const env = environmentFlag(args);
      const what = `rotate-keys replaces the ${env} publishable and secret keys of "${project.name}"`;
      const question = `Replace the ${env} keys of "${project.name}"? Apps and servers using them stop working until they get the new ones.`;
      if (!(await confirmed(args, what, question))) {
        process.stderr.write('waymark: nothing rotated\n');
        return 1;
      }
      const keys = await s.projects.rotateEnvironmentKeys(project._id, env === 'live');
      out.data({ id: project._id, env, keys: Object.fromEntries(keys.map((k) => [keyLabel(k.record.live, k.record.kind), k.key])) });
      out.print(`New ${env} keys for "${project.name}"; the old ${env} keys no longer work, the ${env === 'live' ? 'test' : 'live'} keys are unchanged:`);
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
