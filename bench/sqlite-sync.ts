// The cost of SQLite's synchronous=FULL (the default) against NORMAL: sequential single-document puts
// (one caller, each waits for its commit) and 16 callers at once (group commit shares one fsync).
// Bounded: COUNT puts per mode and shape, in a temporary directory removed at the end.
//
// Run: npm run bench:build && node dist/bench/sqlite-sync.js   (env COUNT, default 1000)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SqliteStore } from '../adapters/store/sqlite/sqlite-store';
import { named } from '../test/support/named-collection';
import { put } from '../ports/store';

const COUNT = Number(process.env.COUNT ?? 1000);
const SCOPE = { projectId: 'p', live: false };

async function run(mode: 'FULL' | 'NORMAL', callers: number): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-sync-bench-'));
  const store = new SqliteStore({ file: path.join(dir, 'db.sqlite'), synchronous: mode });
  await store.define(named('users', { keys: ['userId'] }));
  const at = new Date().toISOString();
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: callers }, async () => {
    while (next < COUNT) {
      const i = next++;
      await store.write([put(named('users'), SCOPE, { _id: `u${i}`, createdAt: at, updatedAt: at, userId: `user-${i}`, note: 'x'.repeat(500) })]);
    }
  }));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
  return COUNT / seconds;
}

async function main(): Promise<void> {
  console.log(`load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}; ${COUNT} puts per row`);
  for (const callers of [1, 16]) {
    const full = await run('FULL', callers);
    const normal = await run('NORMAL', callers);
    console.log(`put ×${callers}: FULL ${full.toFixed(0)}/s, NORMAL ${normal.toFixed(0)}/s (FULL costs ${((1 - full / normal) * 100).toFixed(0)} %)`);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
