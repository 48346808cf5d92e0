// A mode file is derived and written on the importing thread while the other modes' workers wait to be
// heard: at ×20×20 one took 19 s without a progress line (issue 35: a line at least every 10 s). The
// writer calls back between its tables' steps and between its writes, and what it writes is unchanged.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { importGenerated } from '../../bench/support/generated-import';
import { readModeGraph, readNetwork } from '../../adapters/router/embedded/network-loader';
import { writeModeGraph } from '../../core/formats/routing/network-files';

let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-mode-write-'));
  await importGenerated(24, 7, dir);
}, 120_000);

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

test.each(['car', 'foot'] as const)('%s: written again with a tick between steps, byte for byte the import\'s file', (mode) => {
  const routing = path.join(dir, 'routing');
  const network = readNetwork(routing);
  const graph = readModeGraph(routing, mode);
  const out = fs.mkdtempSync(path.join(dir, 'again-'));
  let ticks = 0;
  const bytes = writeModeGraph(out, mode, graph, network, () => ticks++);
  const written = fs.readFileSync(path.join(out, `${mode}.bin`));
  expect(written.length).toBe(bytes);
  expect(written.equals(fs.readFileSync(path.join(routing, `${mode}.bin`)))).toBe(true);
  // One a step of each of the tables' passes (at least six passes over arcs and segment directions),
  // and one a write.
  expect(ticks).toBeGreaterThanOrEqual(6);
});
