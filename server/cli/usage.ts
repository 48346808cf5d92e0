// The CLI's usage text is also its list of options: each line `waymark COMMAND SUB … [--flag …]` names
// the flags that command takes, so the help an operator reads and the flags the CLI accepts are one text
// and cannot drift. An option no line of the command names is refused (exit 2) instead of ignored.
import { UsageError, type ParsedArgs } from './args';
import { DATA_USAGE } from './commands/data';
import { GEOFENCES_USAGE } from './commands/geofences';
import { PROJECT_USAGE } from './commands/project';
import { REGIONS_USAGE } from './commands/regions';
import { WEBHOOKS_USAGE } from './commands/webhooks';

const SERVE_USAGE = `waymark serve
  (serves the API, the dashboard and /docs; configuration from the environment: PORT, HOST,
   WAYMARK_DATA_DIR, WAYMARK_TLS_CERT/KEY, … see docs/configuration.md)`;

/** Each command's usage, in the order `waymark help` prints them. */
export const USAGES: ReadonlyMap<string, string> = new Map([
  ['serve', SERVE_USAGE],
  ['project', PROJECT_USAGE],
  ['webhooks', WEBHOOKS_USAGE],
  ['geofences', GEOFENCES_USAGE],
  ['regions', REGIONS_USAGE],
  ['data', DATA_USAGE],
]);

export const USAGE = `Usage:
${[...USAGES.values()].join('\n')}

waymark help [COMMAND], or COMMAND --help: one command's usage. Exit codes: 0 success, 1 failure or not
found, 2 usage error. Configuration comes from the environment: see docs/configuration.md.`;

interface UsageLine {
  /** The command words it starts with: ['geofences', 'sync', 'set']. */
  path: string[];
  text: string;
  flags: Set<string>;
}

/** The usage's `waymark …` lines, each joined with its indented continuation lines (not its notes). */
function usageLines(usage: string): UsageLine[] {
  const lines: UsageLine[] = [];
  for (const raw of usage.split('\n')) {
    if (raw.startsWith('waymark ')) {
      const words = raw.slice('waymark '.length).split(/\s+/);
      const path: string[] = [];
      for (const w of words) {
        if (!/^[a-z][a-z-]*$/.test(w)) break;
        path.push(w);
      }
      lines.push({ path, text: raw, flags: new Set() });
    } else if (/^ {4}\S/.test(raw) && lines.length > 0) {
      lines[lines.length - 1].text += `\n${raw}`;
    }
  }
  for (const line of lines) {
    for (const m of line.text.matchAll(/--([a-z][a-z-]*)/g)) line.flags.add(m[1]);
    // `--live` is the documented short form of `--env live` wherever --env is taken.
    if (line.flags.has('env')) line.flags.add('live');
  }
  return lines;
}

/** The lines of `command`'s usage that the typed words select (all of them when no subcommand matches). */
function matchingLines(command: string, words: string[]): UsageLine[] {
  const lines = usageLines(USAGES.get(command) ?? '');
  return lines.filter((l) => l.path.every((w, i) => words[i] === w));
}

/** Help for what was typed: the matching lines of one command, else its whole usage, else everything. */
export function helpFor(words: string[]): string {
  const usage = USAGES.get(words[0] ?? '');
  if (usage === undefined) return USAGE;
  const lines = words.length > 1 ? matchingLines(words[0], words) : [];
  return lines.length > 0 ? `Usage:\n${lines.map((l) => l.text).join('\n')}` : `Usage:\n${usage}`;
}

/**
 * Refuses options the typed command does not take. Words that select no usage line (a mistyped
 * subcommand) are left to the command, which says so with its usage.
 */
export function checkOptions(args: ParsedArgs): void {
  const [command] = args.words;
  if (command === undefined || !USAGES.has(command)) return;
  const lines = matchingLines(command, args.words);
  if (lines.length === 0) return;
  const allowed = new Set(['help']);
  for (const l of lines) for (const f of l.flags) allowed.add(f);
  for (const name of args.flags.keys()) {
    if (!allowed.has(name)) {
      const typed = args.words.slice(0, Math.max(...lines.map((l) => l.path.length))).join(' ');
      throw new UsageError(`unknown option --${name} for "${typed}"\n${helpFor(args.words)}`);
    }
  }
}
