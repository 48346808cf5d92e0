// A small argv parser: positional words, then --flag, --flag value, --flag=value. Repeated flags collect.
export interface ParsedArgs {
  words: string[];
  flags: Map<string, string[]>;
}

export function parseArgs(argv: string[]): ParsedArgs {
  const words: string[] = [];
  const flags = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) {
      words.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    let name: string;
    let value: string;
    if (eq > 0) {
      name = arg.slice(2, eq);
      value = arg.slice(eq + 1);
    } else {
      name = arg.slice(2);
      const next = argv[i + 1];
      value = next !== undefined && !next.startsWith('--') ? (i++, next) : 'true';
    }
    flags.set(name, [...(flags.get(name) ?? []), value]);
  }
  return { words, flags };
}

export function flag(args: ParsedArgs, name: string): string | undefined {
  const values = args.flags.get(name);
  return values?.[values.length - 1];
}

export function hasFlag(args: ParsedArgs, name: string): boolean {
  return args.flags.has(name) && flag(args, name) !== 'false';
}

/** A problem with what the operator typed: printed plainly, exit code 2. */
export class UsageError extends Error {}
