// A compiled build of the gateway in some worktree: where its CLI is, and an extract imported with that
// build's own importer. Builds older than the re-layering (issue 34) keep the CLI in dist/gateway/, newer
// ones in dist/server/; both take the same `serve` and `data import` commands.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const CLI_CANDIDATES = ['dist/server/cli/main.js', 'dist/gateway/cli/main.js'];

/** The compiled CLI of the worktree `dir`; throws, naming what was looked for, when there is none. */
export function cliOf(dir: string): string {
  for (const rel of CLI_CANDIDATES) {
    const file = path.resolve(dir, rel);
    if (fs.existsSync(file)) return file;
  }
  throw new Error(`${dir} has no compiled gateway (looked for ${CLI_CANDIDATES.join(', ')}); build it first: npx tsc -p tsconfig.build.json`);
}

/**
 * Imports `extract` as `name` into `dataDir` with the build's own CLI (the importer moved folders in the
 * re-layering, so each build writes its own files). Its progress lines go to our stderr.
 */
export async function importExtract(cli: string, dataDir: string, extract: string, name: string): Promise<void> {
  const child = spawn(process.execPath, [cli, 'data', 'import', extract, '--name', name], {
    env: { ...process.env, WAYMARK_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let tail = '';
  const keep = (chunk: Buffer): void => {
    tail = (tail + chunk.toString()).slice(-4000);
    process.stderr.write(chunk);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`data import of ${extract} with ${cli} exited with ${code}:\n${tail}`);
}
