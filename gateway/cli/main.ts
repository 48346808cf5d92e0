// Entry point of `waymark` (and of `npm start`).
import { configFromEnv } from '../config';
import { silentLogger } from '../http/logger';
import { parseArgs, hasFlag, UsageError } from './args';
import { dataCommand, DATA_USAGE } from './commands/data';
import { geofencesCommand, GEOFENCES_USAGE } from './commands/geofences';
import { projectCommand, PROJECT_USAGE } from './commands/project';
import { regionsCommand, REGIONS_USAGE } from './commands/regions';
import { webhooksCommand, WEBHOOKS_USAGE } from './commands/webhooks';
import { cliOutput } from './output';

const USAGE = `Usage:
waymark serve
${PROJECT_USAGE}
${WEBHOOKS_USAGE}
${GEOFENCES_USAGE}
${REGIONS_USAGE}
${DATA_USAGE}

Configuration comes from the environment (PORT, WAYMARK_DATA_DIR, WAYMARK_STORE, …): see docs/configuration.md.`;

export async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  const out = cliOutput(hasFlag(args, 'json'));
  const config = configFromEnv();
  const command = args.words[0];
  // The gateway's modules (app, serve) load only for the commands that use them: `data import` starts
  // half a second sooner without them.
  if (command === 'serve') return (await import('./commands/serve')).serveCommand(config, out);
  if (command === undefined || command === 'help' || hasFlag(args, 'help')) {
    process.stdout.write(USAGE + '\n');
    return command === undefined ? 2 : 0;
  }
  // Boundary files live in the data directory, not the store: no services to open.
  if (command === 'regions') return regionsCommand(config, args, out);
  // OSM extracts too: files in the data directory.
  if (command === 'data') return dataCommand(config, args, out);
  // Checked before opening the store: a mistyped command must not create a data directory.
  if (command !== 'project' && command !== 'webhooks' && command !== 'geofences') throw new UsageError(`Unknown command "${command}".\n${USAGE}`);
  const { createServices } = await import('../app');
  const services = await createServices(config, silentLogger());
  try {
    if (command === 'webhooks') return await webhooksCommand(services, args, out);
    if (command === 'geofences') return await geofencesCommand(services, args, out);
    return await projectCommand(services, args, out);
  } finally {
    await services.store.close();
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      if (code !== 0 || process.argv[2] !== 'serve') process.exitCode = code;
    },
    (err: unknown) => {
      if (err instanceof UsageError) {
        process.stderr.write(`${err.message}\n`);
        process.exitCode = 2;
      } else {
        process.stderr.write(`waymark: ${err instanceof Error ? err.message : String(err)}\n`);
        process.exitCode = 1;
      }
    },
  );
}
