// Runs a load generator script in a child process and returns its LoadResult (sent over IPC).
import { fork } from 'node:child_process';
import type { LoadResult } from './load';

export function loadInChild(script: string, job: unknown): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(script, [JSON.stringify(job)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let result: LoadResult | undefined;
    child.once('message', (m) => {
      result = m as LoadResult;
    });
    child.once('error', reject);
    child.once('exit', (code) => (result ? resolve(result) : reject(new Error(`load generator exited with ${code} and no result`))));
  });
}
