// The webhook sender thread (server/features/webhooks/delivery/delivery-sender.ts): a batch of one
// endpoint's requests is signed and sent there, in order, one at a time, and stops at the first request
// not acknowledged; stop() and abort() end a run after (or cutting) the request in flight. The thread
// runs the TypeScript sources through swc (test/support/swc-require-hook.js) as a built gateway runs
// the compiled file; the delivery worker using it is covered by the webhook API tests (in process) and
// the crash test (a built gateway, with the thread).
import path from 'node:path';
import { ThreadSender, type SendRun } from '../../server/features/webhooks/delivery/delivery-sender';
import type { SendBatch, SentAttempt } from '../../server/features/webhooks/delivery/delivery-send-run';
import { verifyRadarSignature, verifyWaymarkSignature } from '../../core/webhooks/signature';
import { silentLogger } from '../../ports/logger';
import { startReceiver, type TestReceiver } from './webhooks-receiver';

const HOOK = path.resolve(__dirname, '../support/swc-require-hook.js');
const THREAD = path.resolve(__dirname, '../../server/features/webhooks/delivery/delivery-sender-thread.ts');
const TOKEN = 'a'.repeat(48);
/** The thread transpiles its sources as it starts: seconds on a busy machine. */
const WAIT_MS = 60_000;

jest.setTimeout(120_000);

let receiver: TestReceiver;
let sender: ThreadSender;

beforeAll(async () => {
  receiver = await startReceiver();
  sender = new ThreadSender({
    policy: { allowPrivate: true, allowedNetworks: [] }, timeoutMs: 30_000, thread: true, logger: silentLogger(),
    threadScript: `require(${JSON.stringify(HOOK)}); require(${JSON.stringify(THREAD)});`,
  });
});

afterAll(async () => {
  await sender.close();
  await receiver.close();
});

beforeEach(() => {
  receiver.received = [];
  receiver.script = [];
  receiver.fallback = { status: 200 };
});

function batch(p: string, n: number): SendBatch {
  return {
    url: `${receiver.url}${p}`,
    tokens: [TOKEN],
    requests: Array.from({ length: n }, (_, i) => ({ body: JSON.stringify({ event: { _id: `e${i}` } }), deliveryId: `row${i}`, attempt: 1, eventIds: [`e${i}`] })),
  };
}

async function all(run: SendRun): Promise<SentAttempt[]> {
  const out: SentAttempt[] = [];
  for (let s = await run.next(); s !== undefined; s = await run.next()) out.push(s);
  return out;
}

test('sends a batch in order, one request at a time, signed, and reports each outcome', async () => {
  const sent = await all(sender.start(batch('/order', 5)));
  expect(sent.map((s) => s.attempt.ok)).toEqual([true, true, true, true, true]);
  expect(sent.every((s) => s.endedMs >= s.startedMs)).toBe(true);
  const got = receiver.received.filter((r) => r.path === '/order');
  expect(got.map((r) => r.headers['x-waymark-delivery-id'])).toEqual(['row0', 'row1', 'row2', 'row3', 'row4']);
  expect(receiver.maxInFlight.get('/order')).toBe(1);
  for (const r of got) {
    expect(verifyWaymarkSignature({ header: String(r.headers['x-waymark-signature']), timestamp: String(r.headers['x-waymark-timestamp']), body: r.body, token: TOKEN, now: new Date() })).toBe(true);
    expect(verifyRadarSignature(TOKEN, String(r.headers['x-radar-signing-id']), String(r.headers['x-radar-signature']))).toBe(true);
  }
});

test('stops at the first request not acknowledged: the later ones are not sent', async () => {
  receiver.script = [{ status: 200 }, { status: 500 }];
  const sent = await all(sender.start(batch('/fail', 4)));
  expect(sent.map((s) => [s.attempt.ok, s.attempt.status])).toEqual([[true, 200], [false, 500]]);
  expect(receiver.received.filter((r) => r.path === '/fail').map((r) => r.headers['x-waymark-delivery-id'])).toEqual(['row0', 'row1']);
});

test('stop() lets the request in flight finish and report, and sends nothing after it', async () => {
  receiver.script = [{ status: 200, delayMs: 300 }];
  const run = sender.start(batch('/stop', 4));
  await receiver.waitFor((rs) => rs.some((r) => r.path === '/stop'), WAIT_MS, 'the first request');
  run.stop();
  const sent = await all(run);
  expect(sent.map((s) => s.attempt.ok)).toEqual([true]);
  expect(receiver.received.filter((r) => r.path === '/stop')).toHaveLength(1);
});

test('runs of different endpoints go side by side', async () => {
  receiver.script = [{ status: 200, delayMs: 400 }];
  const slow = sender.start(batch('/slow', 1));
  await receiver.waitFor((rs) => rs.some((r) => r.path === '/slow'), WAIT_MS, 'the slow request');
  // The slow endpoint's request is still unanswered while the other's whole batch goes through.
  const fast = await all(sender.start(batch('/fast', 3)));
  expect(fast.map((s) => s.attempt.ok)).toEqual([true, true, true]);
  expect((await all(slow)).map((s) => s.attempt.ok)).toEqual([true]);
});

test('abort() cuts the request in flight (reported as aborted) and ends every run', async () => {
  // The last test: the shared sender sends nothing after it.
  receiver.script = [{ status: 200, delayMs: 20_000 }];
  const run = sender.start(batch('/abort', 3));
  await receiver.waitFor((rs) => rs.some((r) => r.path === '/abort'), WAIT_MS, 'the request');
  sender.abort();
  const sent = await all(run);
  expect(sent.map((s) => s.attempt.aborted)).toEqual([true]);
  expect(await all(sender.start(batch('/after-abort', 1)))).toEqual([]);
  expect(receiver.received.filter((r) => r.path === '/after-abort')).toEqual([]);
});
