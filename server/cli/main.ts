// Entry point of `waymark` (and of `npm start`). The convention every command follows (docs/cli.md):
// `--help` → usage on stdout, exit 0; a wrong command line → exit 2; a failure or something named that
// does not exist → exit 1; every message on stderr after `waymark: `.
import { configFromEnv } from '../config';
import { silentLogger } from '../../ports/logger';
import { parseArgs, hasFlag, InterruptedError, UsageError } from './args';
import { dataCommand } from './commands/data';
import { geofencesCommand } from './commands/geofences';
import { projectCommand } from './commands/project';
import { regionsCommand } from './commands/regions';
import { webhooksCommand } from './commands/webhooks';
import { cliOutput } from './output';
import { rerunWithMallocTunables, wantsMallocRerun } from './malloc-tunables';
import type { StoreCommandParts } from './store-commands';
import { checkOptions, helpFor, USAGE, USAGES } from './usage';

async function run(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  const command = args.words[0];
  if (command === 'help' || (command === undefined && hasFlag(args, 'help'))) {
    process.stdout.write(helpFor(args.words.slice(1)) + '\n');
    return 0;
  }
  if (command === undefined) throw new UsageError(`a command is needed\n${USAGE}`);
  // Checked before anything is opened: a mistyped command must not create a data directory.
  if (!USAGES.has(command)) throw new UsageError(`unknown command "${command}"\n${USAGE}`);
  if (hasFlag(args, 'help')) {
    process.stdout.write(helpFor(args.words) + '\n');
    return 0;
  }
  checkOptions(args);
  const out = cliOutput(hasFlag(args, 'json'));
  const config = configFromEnv();
  // The gateway's modules (app, serve) load only for the commands that use them: `data import` starts
  // half a second sooner without them.
  if (command === 'serve') return (await import('./commands/serve')).serveCommand(config, out);
  // Boundary files live in the data directory, not the store: no services to open.
  if (command === 'regions') return regionsCommand(config, args, out);
  // OSM extracts too: files in the data directory.
  if (command === 'data') return dataCommand(config, args, out);
  const { createGateway, closeGateway } = await import('../app');
  const gateway = await createGateway(config, silentLogger());
  const parts: StoreCommandParts = { store: gateway.adapters.store, projects: gateway.shared.projects, installed: gateway.installed };
  try {
    if (command === 'webhooks') return await webhooksCommand(parts, args, out);
    if (command === 'geofences') return await geofencesCommand(parts, args, out);
    return await projectCommand(parts, args, out);
  } finally {
    // Everything createGateway opened, not the store alone: an open Redis client (the rate limiter) or a
    // feature's timer kept the process alive after its answer.
    await closeGateway(gateway);
  }
}

/** Runs one command line; reports any error on stderr and answers the exit code. */
export async function main(argv: string[]): Promise<number> {
  try {
    return await run(argv);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`waymark: ${message}\n`);
    if (err instanceof InterruptedError) return err.exitCode;
    return err instanceof UsageError ? 2 : 1;
  }
}


/**
 * A command line as this process's own (bin/waymark.js, `node dist/server/cli/main.js`): `data import`
 * runs itself again once with malloc's tunables set (malloc-tunables.ts: glibc reads them only at a
 * process's start), everything else as main().
 */
export async function mainProcess(argv: string[]): Promise<number> {
  let words: string[] = [];
  try {
    words = parseArgs(argv).words;
  } catch {
    // main() says what is wrong with the command line.
  }
  if (words[0] === 'data' && words[1] === 'import' && !argv.includes('--help') && wantsMallocRerun()) return rerunWithMallocTunables(process.argv[1], argv);
  return main(argv);
}

if (require.main === module) {
  mainProcess(process.argv.slice(2)).then((code) => {
    // A serving gateway exits when its server closes; anything else ends with its code.
    if (code !== 0 || process.argv[2] !== 'serve') process.exitCode = code;
    // Stopped by a signal, its work undone: what still runs (an import's worker threads) ends with the process.
    if (code > 128) process.exit(code);
  });
}
