// A mode's inputs go to its worker as transferred buffers (mode-graphs.ts): only the job's own arrays,
// never what another job shares with it (car's and truck's obstacles, the order truck follows), and the
// budget counts them once: in the process's base while the job waits, in its worker's estimate once it runs.
import { MessageChannel } from 'node:worker_threads';
import { jobBuffers, type ModeGraphJob } from '../../importers/osm/stages/routing/mode-graph-job';
import { heldWith } from '../../importers/osm/stages/routing/mode-graph-schedule';
import type { VertexObstacles } from '../../core/routing/obstacles';

function job(id: number, segments: number, obstacles: VertexObstacles | null, orderRank?: Uint32Array): ModeGraphJob {
  return {
    id, segmentForward: new Float32Array(segments), segmentBackward: new Float32Array(segments), restrictions: [], turnCosts: null,
    blockedVertices: [], restricted: new Uint8Array(segments), noStart: new Uint8Array(segments), pushed: new Uint8Array(segments),
    ratePercent: new Uint8Array(segments * 2), obstacles, contractionSpillDir: null, orderRank,
  };
}

test("a job's transferred buffers are its own: the obstacles and order it shares stay readable by the other job", async () => {
  const obstacles: VertexObstacles = { vertex: Uint32Array.of(1, 2), seconds: Float32Array.of(8, 2), kind: Uint8Array.of(0, 0) };
  const rank = Uint32Array.of(2, 0, 1);
  const car = job(0, 100, obstacles);
  const truck = job(1, 100, obstacles, rank);
  const buffers = jobBuffers(truck);
  // 13 bytes a segment: two 32-bit speeds, three flags, two rates.
  expect(buffers.reduce((sum, b) => sum + b.byteLength, 0)).toBe(1_300);
  const { port1, port2 } = new MessageChannel();
  const received = new Promise<ModeGraphJob>((resolve) => port2.once('message', resolve));
  port1.postMessage(truck, buffers);
  const sent = await received;
  port1.close();
  port2.close();
  // Gone from this side, whole on the other.
  expect(truck.segmentForward.length).toBe(0);
  expect(sent.segmentForward.length).toBe(100);
  // What car's job and truck's order share is untouched.
  expect(car.obstacles!.seconds).toEqual(Float32Array.of(8, 2));
  expect(rank).toEqual(Uint32Array.of(2, 0, 1));
  expect(car.segmentForward.length).toBe(100);
});

test('the budget counts a started job\'s inputs once: in its estimate, no longer in the base', () => {
  const MiB = 2 ** 20;
  // RSS at the building 1,000 MiB with both jobs' inputs (100 MiB each); the first runs (estimate 400).
  const held = heldWith({ base: 1_000 * MiB, handedOver: 100 * MiB, inputs: 100 * MiB, expected: 400 * MiB, running: [400 * MiB] });
  expect(held).toBe(1_600 * MiB);
});
