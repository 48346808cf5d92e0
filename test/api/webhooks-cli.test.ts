// `waymark webhooks …` run in-process on a temporary data directory, the way an operator would; then
// a gateway on the same directory delivers to the webhook the CLI made.
import fs from 'node:fs';
import { main } from '../../server/cli/main';
import { startTestServer, tempDataDir } from '../support/server';
import { fastWebhooks } from './webhooks-config';
import { startReceiver, type TestReceiver } from './webhooks-receiver';

const dataDir = tempDataDir();
const saved = { ...process.env };
let receiver: TestReceiver;

beforeAll(async () => {
  receiver = await startReceiver();
  process.env.WAYMARK_DATA_DIR = dataDir;
  process.env.WAYMARK_WEBHOOK_ALLOW_PRIVATE = 'true';
});
afterAll(async () => {
  process.env = saved;
  await receiver.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Runs the CLI and returns what it printed, parsed when --json was given. */
// The JSON documents differ per command; each test asserts the shape it expects.
async function cli(...argv: string[]): Promise<any> {
  let printed = '';
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    printed += String(chunk);
    return true;
  });
  try {
    const code = await main(argv);
    expect(code).toBe(0);
  } finally {
    spy.mockRestore();
  }
  return argv.includes('--json') ? JSON.parse(printed) : printed;
}

test('create, list, update, rotate, inspect and delete webhooks from the CLI', async () => {
  await cli('project', 'create', '--name', 'cli', '--json');
  const created = await cli('webhooks', 'create', '--url', `${receiver.url}/cli`, '--types', 'user.entered_geofence', '--mode', 'batch', '--json');
  expect(created).toMatchObject({ url: `${receiver.url}/cli`, types: ['user.entered_geofence'], mode: 'batch', enabled: true, live: false });
  const id: string = created._id;

  expect((await cli('webhooks', 'list', '--json')).map((w: { _id: string }) => w._id)).toEqual([id]);
  expect(await cli('webhooks', 'list', '--live', '--json')).toEqual([]);
  expect(await cli('webhooks', 'list')).toContain(`${id}  enabled   batch   ${receiver.url}/cli  (user.entered_geofence)`);

  const paused = await cli('webhooks', 'update', id, '--disable', '--types', 'all', '--json');
  expect(paused).toMatchObject({ enabled: false, types: null, mode: 'batch' });
  const resumed = await cli('webhooks', 'update', id, '--enable', '--mode', 'single', '--json');
  expect(resumed).toMatchObject({ enabled: true, mode: 'single' });

  const rotated = await cli('webhooks', 'rotate-token', id, '--json');
  expect(rotated.token).not.toBe(created.token);
  expect(await cli('webhooks', 'dead-letters', id, '--json')).toEqual({ deadLetters: [], hasMore: false });
  expect(await cli('webhooks', 'deliveries', id, '--json')).toEqual({ deliveries: [], hasMore: false });

  const spare = await cli('webhooks', 'create', '--url', `${receiver.url}/spare`, '--json');
  expect(await cli('webhooks', 'delete', spare._id, '--json')).toEqual({ deleted: spare._id });
  expect((await cli('webhooks', 'list', '--json')).map((w: { _id: string }) => w._id)).toEqual([id]);
});

/** Runs a CLI command expected to fail: its exit code and what it wrote to stderr. */
async function failing(argv: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const spy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  try {
    return { code: await main(argv), stderr };
  } finally {
    spy.mockRestore();
  }
}

test.each([
  ['a refused address', ['webhooks', 'create', '--url', 'http://169.254.169.254/'], 2, /^waymark: --url refused: 169\.254\.169\.254 is a cloud metadata address\n$/],
  ['no url', ['webhooks', 'create'], 2, /^waymark: --url is required\n$/],
  ['a bad mode', ['webhooks', 'create', '--url', 'http://127.0.0.1:9/', '--mode', 'bulk'], 2, /^waymark: --mode must be one of single, batch\n$/],
  ['redeliver without what', ['webhooks', 'redeliver', 'ffffffffffffffffffffffff'], 2, /^waymark: redeliver needs --dead-letters, --events or --since\/--until/],
  ['an unknown webhook (not found: a failure)', ['webhooks', 'rotate-token', 'ffffffffffffffffffffffff'], 1, /^waymark: No webhook with _id "ffffffffffffffffffffffff"\n$/],
  ['no sub-command', ['webhooks'], 2, /^waymark: webhooks needs a subcommand\nwaymark webhooks list/],
  ['an option the command does not take', ['webhooks', 'list', '--bogus'], 2, /^waymark: unknown option --bogus for "webhooks list"\nUsage:\nwaymark webhooks list/],
])('%s: exit %s, the message on stderr', async (_name, argv, code, message) => {
  const run = await failing(argv as string[]);
  expect(run.code).toBe(code);
  expect(run.stderr).toMatch(message as RegExp);
});

test('a gateway on the same data directory delivers to the webhook the CLI created', async () => {
  const server = await startTestServer({ dataDir, webhooks: fastWebhooks() });
  try {
    const keys = server.keys;
    await server.request('PUT', '/v1/geofences/venue/cafe', { key: keys.testSk, body: { type: 'circle', coordinates: [-73.9712, 40.7831], radius: 100, description: 'Café' } });
    const r = await server.request('POST', '/v1/track', { key: keys.testPk, body: { deviceId: 'cli-dev', latitude: 40.7831, longitude: -73.9712, accuracy: 5, foreground: true } });
    const [event] = r.body.events;
    await receiver.waitFor((rs) => rs.some((x) => x.path === '/cli'), undefined, 'the delivery');
    expect(receiver.received.find((x) => x.path === '/cli')?.json.event._id).toBe(event._id);
    const hooks = (await server.request('GET', '/v1/webhooks', { key: keys.testSk })).body.webhooks;
    // The log entry is written once the receiver's answer is in: poll for it.
    let log = await cli('webhooks', 'deliveries', hooks[0]._id, '--json');
    for (let i = 0; i < 500 && log.deliveries.length === 0; i++) {
      await new Promise((res) => setTimeout(res, 20));
      log = await cli('webhooks', 'deliveries', hooks[0]._id, '--json');
    }
    expect(log.deliveries.map((d: { outcome: string }) => d.outcome)).toEqual(['delivered']);
  } finally {
    await server.close();
  }
});

test('one environment flag: --env live is --live; an unknown subcommand or environment is a usage error', async () => {
  const created = await cli('webhooks', 'create', '--url', `${receiver.url}/live-one`, '--env', 'live', '--json');
  expect(created.live).toBe(true);
  const viaEnv = await cli('webhooks', 'list', '--env', 'live', '--json');
  const viaLive = await cli('webhooks', 'list', '--live', '--json');
  expect(viaEnv.map((w: { _id: string }) => w._id)).toEqual([created._id]);
  expect(viaLive).toEqual(viaEnv);
  expect(await failing(['webhooks', 'explode'])).toEqual({ code: 2, stderr: expect.stringMatching(/^waymark: Unknown webhooks subcommand "explode"\nwaymark webhooks list/) });
  expect(await failing(['webhooks', 'list', '--env', 'prod'])).toEqual({ code: 2, stderr: 'waymark: --env must be test or live, got "prod"\n' });
  const ftp = await failing(['webhooks', 'create', '--url', 'ftp://x']);
  expect(ftp.stderr).toMatch(/^waymark: --url\b/);
  expect(ftp.stderr).not.toMatch(/--url: url\b|^waymark: url: url\b/);
});
