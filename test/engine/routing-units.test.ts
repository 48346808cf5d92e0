// Radar's distance and duration texts, from the values in Radar's own fixtures; the polyline codec; step
// instructions for maneuvers osrm-text-instructions cannot word as given.
import { decodePolyline, encodePolyline } from '../../adapters/router/polyline';
import { distanceMeasure, durationMeasure, durationText } from '../../server/features/routing/route-units';
import { instructionText } from '../../server/features/routing/step-instructions';

describe('route units', () => {
  it('writes durations as Radar does', () => {
    expect(durationText(142)).toBe('2 hrs 22 mins');
    expect(durationText(19.9)).toBe('20 mins');
    expect(durationText(11)).toBe('11 mins');
    expect(durationText(0.8153)).toBe('1 min');
    expect(durationText(0.41185)).toBe('0.4 min');
    expect(durationText(0.1871)).toBe('0.2 min');
    expect(durationText(60)).toBe('1 hr');
    expect(durationText(61)).toBe('1 hr 1 min');
    expect(durationMeasure(8520)).toEqual({ value: 142, text: '2 hrs 22 mins' });
  });

  it('writes distances in miles or feet (imperial) and kilometres or metres (metric)', () => {
    // Radar: 42480.31 ft → "8.0 mi", 1233.6 ft → "0.2 mi", 757.87 ft → "757.9 ft", 406.82 ft → "406.8 ft".
    expect(distanceMeasure(42480.31 / 3.28084, 'imperial')).toEqual({ value: 42480.31, text: '8.0 mi' });
    expect(distanceMeasure(1233.59584 / 3.28084, 'imperial').text).toBe('0.2 mi');
    expect(distanceMeasure(757.87404 / 3.28084, 'imperial').text).toBe('757.9 ft');
    expect(distanceMeasure(406.82416 / 3.28084, 'imperial').text).toBe('406.8 ft');
    expect(distanceMeasure(18453.39824345505 / 3.28084, 'imperial').text).toBe('3.5 mi');
    expect(distanceMeasure(200, 'metric')).toEqual({ value: 200, text: '0.2 km' });
    expect(distanceMeasure(2894.5, 'metric')).toEqual({ value: 2894.5, text: '2.9 km' });
    expect(distanceMeasure(42.4, 'metric')).toEqual({ value: 42.4, text: '42 m' });
  });
});

describe('polyline codec', () => {
  it('decodes the example of the format description and round-trips at both precisions', () => {
    expect(decodePolyline('_p~iF~ps|U_ulLnnqC_mqNvxq`@', 5)).toEqual([[-120.2, 38.5], [-120.95, 40.7], [-126.453, 43.252]]);
    const points: Array<[number, number]> = [[7.427724, 43.739173], [-179.999999, -89.999999], [179.999999, 89.999999], [0, 0]];
    expect(decodePolyline(encodePolyline(points, 6), 6)).toEqual(points);
    expect(encodePolyline([[-120.2, 38.5], [-120.95, 40.7], [-126.453, 43.252]], 5)).toBe('_p~iF~ps|U_ulLnnqC_mqNvxq`@');
  });

  it('refuses a truncated string', () => {
    expect(() => decodePolyline('_p~iF~ps|U_', 5)).toThrow(/truncated/);
  });
});

describe('step instructions', () => {
  const base = { distance: 100, duration: 10, name: 'Main Street', mode: 'driving', geometry: [] as Array<[number, number]> };

  it('reads maneuver types it does not know as turns, and lane steps without lanes as continue', () => {
    const maneuver = { bearing_before: 0, bearing_after: 90, location: [0, 0] as [number, number] };
    expect(instructionText({ ...base, maneuver: { ...maneuver, type: 'teleport', modifier: 'left' } }, 'en', 0, 1)).toBe('Turn left onto Main Street.');
    expect(instructionText({ ...base, maneuver: { ...maneuver, type: 'use lane', modifier: 'straight' } }, 'en', 0, 1)).toBe('Continue straight to stay on Main Street.');
    expect(instructionText({ ...base, maneuver: { ...maneuver, type: 'turn' } }, 'ja', 0, 1)).not.toMatch(/\.$/);
  });
});
