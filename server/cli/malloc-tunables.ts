// `waymark data import` (and bench/import-region.ts) runs in a process started with glibc's malloc told
// to give freed memory back: the import allocates and frees many mid-sized typed arrays (the reading's
// growing lists, each mode's inputs, a written graph's arrays), and glibc's dynamic mmap threshold rises
// to 32 MiB after the first large frees, so later ones land in malloc's arenas, fragment them and stay
// resident (the importing thread held 1,474 MiB when the graphs began at ×20×20, of which ~540 were
// accounted); a finished worker's arena stays resident too. A fixed threshold (128 KiB) keeps the
// dynamic raise off: every array of 128 KiB or more is its own mapping, unmapped when freed. Measured
// (docs/data-import.md, issue 35): ×4 peak 691–732 → 563 MiB, ×8 see the docs; CPU within the noise.
// glibc reads its tunables only when a process starts, so the command runs itself again, once, with
// them set; other commands (serving) are left as they are. Not on other C libraries (musl ignores
// GLIBC_TUNABLES), nor when GLIBC_TUNABLES already sets a threshold (the operator's own, or this run's:
// the child does not run itself a third time).
import { spawn } from 'node:child_process';

export const IMPORT_MALLOC_TUNABLES = 'glibc.malloc.mmap_threshold=131072';

/** Whether this process should run itself again with the tunables (see above). */
export function wantsMallocRerun(env: NodeJS.ProcessEnv = process.env): boolean {
  if (process.platform !== 'linux' || (env.GLIBC_TUNABLES ?? '').includes('glibc.malloc.mmap_threshold')) return false;
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
  return typeof header?.glibcVersionRuntime === 'string';
}

/**
 * Runs `script` with `args` in a child Node (this one's flags) with the tunables set, its output this
 * process's; answers its exit code (128 + the signal's number when a signal ended it). SIGINT, SIGTERM
 * and SIGHUP are passed on; a stop that reached both (Ctrl-C goes to the terminal's whole process group)
 * arrives twice, which the import takes as one (data.ts).
 */
export function rerunWithMallocTunables(script: string, args: readonly string[]): Promise<number> {
  const env = { ...process.env, GLIBC_TUNABLES: [process.env.GLIBC_TUNABLES, IMPORT_MALLOC_TUNABLES].filter(Boolean).join(':') };
  const child = spawn(process.execPath, [...process.execArgv, script, ...args], { stdio: 'inherit', env });
  const pass = (sig: NodeJS.Signals): void => {
    child.kill(sig);
  };
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const sig of signals) process.on(sig, pass);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      for (const sig of signals) process.off(sig, pass);
      resolve(code ?? 128 + (signal === null ? 0 : signalNumber(signal)));
    });
  });
}

function signalNumber(signal: NodeJS.Signals): number {
  return ({ SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 } as Record<string, number>)[signal] ?? 0;
}
