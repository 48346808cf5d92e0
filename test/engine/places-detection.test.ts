// The place detection rules (core/places/place-detection.ts) on hand-made places.
import type { Place } from '../../core/places/place';
import { detectPlace, EXIT_BUFFER_MAX_M, type PlaceDetectionInput, type PlaceVisit } from '../../core/places/place-detection';
import { PlaceIndex } from '../../core/places/place-index';
import { placeRadiusM } from '../../core/places/place-area';

const M_LAT = 1 / 111_195;
const at = (base: [number, number], eastM: number, northM: number): [number, number] => [base[0] + (eastM * M_LAT) / Math.cos((base[1] * Math.PI) / 180), base[1] + northM * M_LAT];
const C: [number, number] = [-73.99, 40.72];

function box(center: [number, number], halfM: number): Array<[number, number]> {
  const c = [at(center, -halfM, -halfM), at(center, halfM, -halfM), at(center, halfM, halfM), at(center, -halfM, halfM)];
  return [...c, c[0]];
}

const cafe: Place = { _id: '01'.padEnd(24, '1'), name: 'Cafe', lng: C[0], lat: C[1], categories: ['food-beverage', 'cafe'], outline: box(C, 10), osm: 'n1' };
const mall: Place = { _id: '02'.padEnd(24, '2'), name: 'Mall', lng: C[0], lat: C[1], categories: ['shopping-retail', 'shopping-mall'], outline: box(C, 80), osm: 'w2' };
const kiosk: Place = { _id: '01'.padEnd(24, '3'), name: 'Kiosk', ...{ lng: at(C, 40, 0)[0], lat: at(C, 40, 0)[1] }, categories: ['shopping-retail', 'newsagent-newsstand'], osm: 'n3' };
const airport: Place = { _id: '04'.padEnd(24, '4'), name: 'Airport', lng: 0, lat: 0, categories: ['travel-transportation', 'transportation-terminal', 'airport'], osm: 'ourairports:1' };
const index = new PlaceIndex([cafe, mall, kiosk]);

function run(location: [number, number], previous?: PlaceVisit, extra: Partial<PlaceDetectionInput> = {}) {
  return detectPlace({
    location, accuracy: 5, stopped: false, foreground: false, at: new Date('2026-01-01T12:00:00Z'), stopDetection: false,
    candidates: index.near(location, { radiusM: 500, limit: 50 }), previous, lookup: (id) => index.get(id), ...extra,
  });
}

test('the smallest outline containing the point wins; the others are alternates', () => {
  const r = run(C, undefined, { accuracy: 20 });
  expect(r.place?.name).toBe('Cafe');
  expect(r.events).toHaveLength(1);
  const e = r.events[0];
  expect(e.type).toBe('user.entered_place');
  if (e.type === 'user.entered_place') {
    // A 20 m accuracy disk (1,257 m²) round the centre of a 20 × 20 m box: under half of it inside.
    expect(e.confidence).toBe(1);
    // The kiosk's 25 m circle 40 m away is touched by the disk too: outlines first.
    expect(e.alternatePlaces.map((p) => p.name)).toEqual(['Mall', 'Kiosk']);
  }
  expect(run(C).events[0]).toMatchObject({ confidence: 3 });
});

test('an outline beats a fitted circle; a circle place is entered within its category radius', () => {
  expect(placeRadiusM(kiosk)).toBe(25);
  expect(run(at(C, 40, 0)).place?.name).toBe('Mall');
  expect(placeRadiusM(airport)).toBe(1500);
  const outside = new PlaceIndex([kiosk]);
  const r = detectPlace({
    location: at(C, 40 + 20, 0), accuracy: 5, stopped: false, foreground: false, at: new Date(), stopDetection: false,
    candidates: outside.near(at(C, 60, 0), { radiusM: 500, limit: 10 }), previous: undefined, lookup: (id) => outside.get(id),
  });
  expect(r.place?.name).toBe('Kiosk');
});

test('hysteresis: outside by less than min(accuracy, 50 m) stays; farther exits with the duration', () => {
  const visit: PlaceVisit = { placeId: cafe._id, enteredAt: '2026-01-01T11:30:00Z' };
  const solo = new PlaceIndex([cafe]);
  const step = (location: [number, number], accuracy: number) =>
    detectPlace({
      location, accuracy, stopped: false, foreground: false, at: new Date('2026-01-01T12:00:00Z'), stopDetection: false,
      candidates: solo.near(location, { radiusM: 500, limit: 10 }), previous: visit, lookup: (id) => solo.get(id),
    });
  expect(step(at(C, 0, 14), 5).events).toEqual([]);
  expect(step(at(C, 0, 14), 5).visit).toEqual(visit);
  const out = step(at(C, 0, 16), 5);
  expect(out.events).toEqual([{ type: 'user.exited_place', place: cafe, confidence: 3, duration: 30 }]);
  expect(out.visit).toBeUndefined();
  // A 500 m accuracy does not hold a visit 60 m away: the buffer is capped.
  expect(step(at(C, 0, 10 + EXIT_BUFFER_MAX_M + 1), 500).events.map((e) => e.type)).toEqual(['user.exited_place']);
});

test('stop detection: no entry while moving, entry when stopped or in the foreground', () => {
  expect(run(C, undefined, { stopDetection: true }).events).toEqual([]);
  expect(run(C, undefined, { stopDetection: true, stopped: true }).place?.name).toBe('Cafe');
  expect(run(C, undefined, { stopDetection: true, foreground: true }).place?.name).toBe('Cafe');
});

test('moving from one place into another exits first, then enters', () => {
  const r = run(at(C, 40, 0), { placeId: cafe._id, enteredAt: '2026-01-01T11:59:00Z' });
  // 40 m east is still inside the mall, outside the café by 30 m.
  expect(r.events.map((e) => `${e.type}:${e.place.name}`)).toEqual(['user.exited_place:Cafe', 'user.entered_place:Mall']);
});

test('a place gone from the data ends the visit without an event', () => {
  const r = run(at(C, 300, 300), { placeId: 'f'.repeat(24), enteredAt: '2026-01-01T11:00:00Z' });
  expect(r).toEqual({ visit: undefined, place: undefined, events: [] });
});
