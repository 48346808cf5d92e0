// When the routing stage starts each mode's graph (importers/osm/stages/routing/mode-graph-schedule.ts):
// a graph handed back stays counted, and nothing starts, until it is written and collected (at ×20×20
// bike's written 2 GiB waited for a collection while car and foot grew: 6.19 GiB against a 5.89 budget);
// cores are lent only to a contraction in rounds; the order tried is the one whose simulated wall is
// shortest, truck still after car.
import { ModeGraphSchedule, describePlan, planSchedule, type ScheduleSetup, type ScheduledJob } from '../../importers/osm/stages/routing/mode-graph-schedule';

const MiB = 2 ** 20;
const CAR = 0, TRUCK = 1, BIKE = 2, FOOT = 3;
const NAMES = ['car', 'truck', 'bike', 'foot'];
const JOBS: ScheduledJob[] = [{ id: BIKE }, { id: CAR }, { id: TRUCK, orderFrom: CAR }, { id: FOOT }];

function setup(bytes: Record<number, number>, over: Partial<ScheduleSetup> = {}, baseMiB = 1_474, budgetMiB = 6_031): ScheduleSetup {
  return {
    threads: 2, cores: 2, inRounds: () => false,
    memory: {
      budgetBytes: budgetMiB * MiB, base: baseMiB * MiB, inputs: new Map(JOBS.map((j) => [j.id, 45 * MiB])),
      jobBytes: (id, threads = 1) => bytes[id] * MiB + (threads - 1) * 500 * MiB,
    },
    ...over,
  };
}

test('a graph handed back is still counted, and nothing starts until it is written and collected', () => {
  // Room for both at once, one thread: the second may start only once the first is released.
  const schedule = new ModeGraphSchedule([{ id: BIKE }, { id: CAR }], setup({ [BIKE]: 2_000, [CAR]: 1_000 }, { threads: 1 }));
  expect(schedule.next()?.id).toBe(BIKE);
  schedule.started(BIKE);
  expect(schedule.next()).toBeUndefined();
  const running = schedule.held();
  expect(running).toBe((1_474 - 45 + 2_000) * MiB);
  schedule.graphBack(BIKE);
  // Its thread is free, but its arrays are not yet written and collected.
  expect(schedule.next()).toBeUndefined();
  expect(schedule.held()).toBe(running);
  expect(schedule.building).toBe(0);
  schedule.released(BIKE);
  expect(schedule.held()).toBe((1_474 - 45) * MiB);
  expect(schedule.next()?.id).toBe(CAR);
});

test('two threads: one graph being written holds back a job that fits beside the other', () => {
  const schedule = new ModeGraphSchedule([{ id: BIKE }, { id: FOOT }, { id: CAR }], setup({ [BIKE]: 2_000, [FOOT]: 500, [CAR]: 1_000 }, {}, 1_000, 10_000));
  schedule.started(schedule.next()!.id);
  schedule.started(schedule.next()!.id);
  expect(schedule.buildingIds).toEqual([BIKE, FOOT]);
  schedule.graphBack(FOOT);
  expect(schedule.next()).toBeUndefined();
  schedule.released(FOOT);
  expect(schedule.next()?.id).toBe(CAR);
});

test('a lone job is lent the free core only when its contraction runs in rounds, and only then counted with helpers', () => {
  const bytes = { [BIKE]: 2_000 };
  const vertexByVertex = new ModeGraphSchedule([{ id: BIKE }], setup(bytes));
  vertexByVertex.started(BIKE);
  expect(vertexByVertex.lend()).toEqual(new Map([[BIKE, 1]]));
  expect(vertexByVertex.held()).toBe((1_474 - 45 + 2_000) * MiB);

  const inRounds = new ModeGraphSchedule([{ id: BIKE }], setup(bytes, { inRounds: () => true }));
  inRounds.started(BIKE);
  expect(inRounds.lend()).toEqual(new Map([[BIKE, 2]]));
  expect(inRounds.held()).toBe((1_474 - 45 + 2_500) * MiB);
});

// Worker walls measured at ×20×20 (docs/data-import.md, main 4b338bb): bike 807 s, car 444, truck 261, foot 112.
const SECONDS: Record<number, number> = { [BIKE]: 807, [CAR]: 444, [TRUCK]: 261, [FOOT]: 112 };

test('with today\'s ×20 estimates only foot fits beside another mode: the plan hides foot and nothing else', () => {
  const plan = planSchedule(JOBS, setup({ [BIKE]: 3_504, [CAR]: 2_519, [TRUCK]: 2_543, [FOOT]: 1_399 }), (id) => SECONDS[id]);
  expect(plan.wall).toBe(807 + 444 + 261);
  expect(plan.serial).toBe(807 + 444 + 261 + 112);
  const start = new Map(plan.starts.map((s) => [s.id, s.at]));
  expect(start.get(TRUCK)).toBeGreaterThanOrEqual(start.get(CAR)! + 444);
  expect(describePlan(plan, (id) => NAMES[id])).toMatch(/^bike alone; car with foot after bike; truck after car(, alone)? \(expected times bike 1\.00, car 0\.55, truck 0\.32, foot 0\.14 of the dearest\)$/);
});

test('with workers a third smaller, bike and car start together, truck follows car beside bike, and the wall nearly halves', () => {
  const plan = planSchedule(JOBS, setup({ [BIKE]: 2_336, [CAR]: 1_679, [TRUCK]: 1_695, [FOOT]: 933 }), (id) => SECONDS[id]);
  expect(plan.starts.filter((s) => s.at === 0).map((s) => s.id).sort()).toEqual([CAR, BIKE]);
  const truck = plan.starts.find((s) => s.id === TRUCK)!;
  expect(truck).toMatchObject({ at: 444, after: CAR, beside: [BIKE] });
  // Foot after truck, beside bike: 444 + 261 + 112 = 817 s against bike's 807.
  expect(plan.wall).toBe(817);
  expect(describePlan(plan, (id) => NAMES[id])).toMatch(/^(bike with car|car with bike); truck after car, beside bike; foot after truck, beside bike \(expected times/);
});

test('the order given (the dearest first) is kept when no other is shorter', () => {
  const plan = planSchedule(JOBS, setup({ [BIKE]: 100, [CAR]: 100, [TRUCK]: 100, [FOOT]: 100 }, {}, 100, 100_000), (id) => SECONDS[id]);
  // Every order that keeps both cores busy is as short; the first tried is the order given.
  expect(plan.order.map((j) => j.id)).toEqual(JOBS.map((j) => j.id));
});
