// `waymark data import` runs itself again once with glibc's malloc tunables (server/cli/malloc-tunables.ts):
// the child gets them (and so does not run itself again), its output and exit code are the command's,
// and a signal sent to the parent reaches the child. Real processes; the script run is a small file.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { IMPORT_MALLOC_TUNABLES, rerunWithMallocTunables, wantsMallocRerun } from '../../server/cli/malloc-tunables';

const glibc = typeof (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime === 'string';
const onGlibc = process.platform === 'linux' && glibc ? test : test.skip;

let WORK: string;
beforeAll(() => {
  WORK = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-malloc-'));
});
afterAll(() => fs.rmSync(WORK, { recursive: true, force: true }));

onGlibc('runs again only when no threshold is set: not twice (the child has it), not over an operator\'s own', () => {
  expect(wantsMallocRerun({})).toBe(true);
  expect(wantsMallocRerun({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' })).toBe(true);
  expect(wantsMallocRerun({ GLIBC_TUNABLES: IMPORT_MALLOC_TUNABLES })).toBe(false);
  expect(wantsMallocRerun({ GLIBC_TUNABLES: 'glibc.malloc.mmap_threshold=65536' })).toBe(false);
});

onGlibc('the child gets the tunables beside the operator\'s and the command line, and its exit code is the command\'s', async () => {
  const script = path.join(WORK, 'child.js');
  const said = path.join(WORK, 'child.json');
  fs.writeFileSync(script, `require('fs').writeFileSync(${JSON.stringify(said)}, JSON.stringify({ tunables: process.env.GLIBC_TUNABLES, args: process.argv.slice(2) })); process.exitCode = 3;`);
  const before = process.env.GLIBC_TUNABLES;
  process.env.GLIBC_TUNABLES = 'glibc.malloc.arena_max=4';
  try {
    expect(await rerunWithMallocTunables(script, ['data', 'import', 'x.pbf'])).toBe(3);
  } finally {
    if (before === undefined) delete process.env.GLIBC_TUNABLES;
    else process.env.GLIBC_TUNABLES = before;
  }
  expect(JSON.parse(fs.readFileSync(said, 'utf8'))).toEqual({ tunables: `glibc.malloc.arena_max=4:${IMPORT_MALLOC_TUNABLES}`, args: ['data', 'import', 'x.pbf'] });
});

onGlibc('a signal to the parent reaches the child, and the parent answers 128 + its number', async () => {
  const script = path.join(WORK, 'waits.js');
  fs.writeFileSync(script, `process.on('SIGTERM', () => process.exit(143)); setInterval(() => {}, 1000);`);
  const code = await rerunInThisProcess(script);
  expect(code).toBe(143);
});

/** Runs rerunWithMallocTunables here (its child is a real process) and sends this process's handler SIGTERM once the child is ready. */
async function rerunInThisProcess(script: string): Promise<number> {
  const before = process.listeners('SIGTERM').length;
  const running = rerunWithMallocTunables(script, []);
  // The parent's handler is installed at once; the child needs a moment to start and install its own.
  expect(process.listeners('SIGTERM').length).toBe(before + 1);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  process.emit('SIGTERM', 'SIGTERM');
  const code = await running;
  expect(process.listeners('SIGTERM').length).toBe(before);
  return code;
}

