// A small argv parser: positional words, then --flag, --flag value, --flag=value. Repeated flags collect.
import os from 'node:os';
import type { ApiError } from '../http/errors';
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

/**
 * A problem with what the operator typed: exit code 2. The CLI's convention (docs/cli.md): 0 success,
 * 1 failure (the work could not be done, or what was named does not exist), 2 usage (the command line is
 * wrong); every message goes to stderr after `waymark: `; `--help` prints the command's usage, exit 0.
 */
export class UsageError extends Error {}

/** Something named on the command line does not exist (a project, a webhook, an extract): exit 1. */
export class NotFoundError extends Error {}

/**
 * The command was stopped by a signal (Ctrl-C, a service stop) and has undone its work: exit 128 + the
 * signal's number as shells do, at once, whatever work is still running (an import's worker threads).
 */
export class InterruptedError extends Error {
  constructor(message: string, readonly signal: NodeJS.Signals) {
    super(message);
  }

  get exitCode(): number {
    return 128 + (os.constants.signals[this.signal] ?? 15);
  }
}

/** An error of the API layer as the CLI reports it: a missing thing is a failure, bad input is usage. */
export function cliErrorOf(err: ApiError): Error {
  const message = cliMessage(err.param, err.message);
  if (err.status === 404) return new NotFoundError(message);
  return err.status >= 400 && err.status < 500 ? new UsageError(message) : new Error(message);
}

/** An unknown or missing subcommand, said as such, followed by the command's usage. */
export function unknownSubcommand(command: string, sub: string | undefined, usage: string): UsageError {
  return new UsageError(`${sub === undefined ? `${command} needs a subcommand` : `Unknown ${command} subcommand "${sub}"`}\n${usage}`);
}

/**
 * The environment a command works in, one flag for every command: `--env test|live` (default test);
 * `--live` is accepted as short for `--env live`.
 */
export function environmentFlag(args: ParsedArgs): 'test' | 'live' {
  const env = flag(args, 'env');
  if (env === undefined) return hasFlag(args, 'live') ? 'live' : 'test';
  if (env !== 'test' && env !== 'live') throw new UsageError(`--env must be test or live, got "${env}"`);
  if (env === 'test' && hasFlag(args, 'live')) throw new UsageError('--env test and --live contradict each other');
  return env;
}

/** Parameters the CLI takes as positional words, not options: named without a `--`. */
const POSITIONAL = new Set(['id', 'file']);

/**
 * A validation error of the API layer in the CLI's words: the parameter as the operator types it
 * (codeProperty → --code-property), and named once (a message that starts with it is not prefixed again).
 */
export function cliMessage(param: string | undefined, message: string): string {
  if (param === undefined || POSITIONAL.has(param)) return message;
  const option = `--${param.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
  if (message.startsWith(`${param} `) || message.startsWith(`${param}:`)) return option + message.slice(param.length);
  return `${option}: ${message}`;
}
