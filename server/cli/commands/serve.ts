// waymark serve: runs the gateway. On a fresh data directory it first creates a default project and
// prints its keys, so `npm install && npm start` is all a newcomer needs.
import { startServer } from '../../app';
import { unknownVariables, type GatewayConfig } from '../../config';
import type { CliOutput } from '../output';
import { printIssuedKeys } from './project';

export async function serveCommand(config: GatewayConfig, out: CliOutput): Promise<number> {
  // Not an error: a variable of a newer or older version may be set on purpose.
  for (const name of unknownVariables()) process.stderr.write(`waymark: warning: ${name} is set but nothing reads it (see docs/configuration.md)\n`);
  const server = await startServer(config);
  const { store } = server.gateway.adapters;
  if ((await store.projects.list()).length === 0) {
    const created = await server.gateway.shared.projects.create('default');
    out.print(`First start: created project "default" (${created.id}) with keys:`);
    printIssuedKeys(out, created.keys);
  }
  const shown = config.host === '0.0.0.0' || config.host === '::' ? server.url.replace('127.0.0.1', 'localhost') : server.url;
  out.print(`Waymark listening on ${shown} (data: ${config.dataDir}, store: ${store.kind})`);
  out.print(`  dashboard: ${shown}/dashboard/`);
  out.print(`  API docs:  ${shown}/docs`);
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      out.print('Shutting down…');
      server.close().then(resolve, resolve);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return 0;
}
