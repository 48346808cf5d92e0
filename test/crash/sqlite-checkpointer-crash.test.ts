// SIGKILL while the SQLite checkpointer thread copies the WAL into the database file beside the writer
// (sqlite-checkpointer.ts): a child process writes as fast as it can through the store, with the
// checkpointer started early and running every few milliseconds, and is killed three times at a random
// moment. Every write the store acknowledged must be there afterwards, whole, and the file must pass
// SQLite's integrity check.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { buildGateway, REPO, type GatewayBuild } from '../support/gateway-process';

jest.setTimeout(180_000);

const LOOPS = 4;
const PER_WRITE = 20;
const FILLER_CHARS = 3000;

let build: GatewayBuild;
beforeAll(() => {
  build = buildGateway();
});
afterAll(() => build?.remove());

/** The child: LOOPS concurrent writers, each printing "ack <loop> <last n>" once its write is committed. */
function childSource(outDir: string, file: string, round: number): string {
  return `
    const { SqliteStore } = require(${JSON.stringify(path.join(outDir, 'adapters/store/sqlite/sqlite-store.js'))});
    const store = new SqliteStore({ file: ${JSON.stringify(file)}, checkpointer: { startAtWalBytes: 128 * 1024, intervalMs: 5 } });
    const scope = { projectId: 'p', live: false };
    const filler = 'f'.repeat(${FILLER_CHARS});
    (async () => {
      await store.define({ name: 'things', spec: { keys: ['loop'] } });
      await Promise.all(Array.from({ length: ${LOOPS} }, async (_, loop) => {
        for (let n = 0; ; n += ${PER_WRITE}) {
          const ops = [];
          for (let i = n; i < n + ${PER_WRITE}; i++) {
            const id = 'r${round}-l' + loop + '-' + i;
            ops.push({ op: 'put', collection: 'things', scope, doc: { _id: id, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', loop: String(loop), filler } });
          }
          await store.write(ops);
          process.stdout.write('ack ' + loop + ' ' + (n + ${PER_WRITE} - 1) + '\\n');
        }
      }));
    })();
  `;
}

test('SIGKILL during checkpoints loses no acknowledged write and leaves a sound file', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-ckpt-crash-'));
  const file = path.join(dir, 'w.sqlite');
  const outDir = path.dirname(path.dirname(path.dirname(build.main)));
  /** Per round and loop, the highest n acknowledged. */
  const acked: number[][] = [];
  try {
    for (let round = 0; round < 3; round++) {
      const last = Array.from({ length: LOOPS }, () => -1);
      acked.push(last);
      const child = spawn(process.execPath, ['-e', childSource(outDir, file, round)], {
        cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_PATH: path.join(REPO, 'node_modules') },
      });
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      let errors = '';
      child.stderr.on('data', (chunk: Buffer) => { errors += chunk.toString('utf8'); });
      let pending = '';
      let acks = 0;
      child.stdout.on('data', (chunk: Buffer) => {
        pending += chunk.toString('utf8');
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) {
          const [, loop, n] = line.split(' ');
          last[Number(loop)] = Math.max(last[Number(loop)], Number(n));
          acks++;
        }
      });
      const fileBefore = fs.existsSync(file) ? fs.statSync(file).size : 0;
      // ~12 MiB a round: the checkpointer has started and copied many times before the kill.
      const deadline = Date.now() + 60_000;
      while (acks < 200) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`child wrote ${acks} times:\n${errors}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 100));
      child.kill('SIGKILL');
      await exited;
      expect(errors).toBe('');
      // The database file itself grew: pages were copied while the child wrote, not only at a close.
      expect(fs.statSync(file).size).toBeGreaterThan(fileBefore + 4 * 1024 * 1024);
    }

    const db = new Database(file);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const rows = db.prepare('SELECT id, doc FROM coll_things').all() as Array<{ id: string; doc: string }>;
    const stored = new Map(rows.map((r) => [r.id, r.doc]));
    let checked = 0;
    acked.forEach((last, round) => last.forEach((max, loop) => {
      for (let n = 0; n <= max; n++) {
        const doc = stored.get(`r${round}-l${loop}-${n}`);
        if (doc === undefined) throw new Error(`acknowledged write r${round}-l${loop}-${n} is missing`);
        expect((JSON.parse(doc) as { filler: string }).filler).toHaveLength(FILLER_CHARS);
        checked++;
      }
    }));
    expect(checked).toBeGreaterThan(3 * 200 * PER_WRITE / 2);
    db.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
