// Obstacle nodes for motor vehicles, after OSRM v6's car profile (its obstacles library): the seconds a
// car loses at `highway=traffic_signals` (2 s), `highway=stop` (2 s) and `highway=give_way` (1 s), and
// which traffic they bind (`traffic_signals:direction` or `direction` = forward / backward; `stop=minor`).
// OSRM records crossings, traffic calming, mini-roundabouts and turning circles too, but at 0 s, so they
// change no duration and are not kept; `crossing=traffic_signals` on a `highway=crossing` node is a
// pedestrian light OSRM does not count either.
import type { OsmTags } from '../../../stage';
import { OBSTACLE_BACKWARD, OBSTACLE_FORWARD, OBSTACLE_MINOR, OBSTACLE_STOP } from '../../../../../core/routing/obstacles';

export interface NodeObstacle {
  seconds: number;
  /** OBSTACLE_* bits (core/routing/obstacles.ts). */
  kind: number;
  /** A traffic signal (the segments through it are flagged). */
  signal: boolean;
}

const SECONDS: Readonly<Record<string, number>> = { traffic_signals: 2, stop: 2, give_way: 1 };

function directionBits(value: string | undefined): number {
  if (value === 'forward') return OBSTACLE_FORWARD;
  if (value === 'backward') return OBSTACLE_BACKWARD;
  return 0;
}

/** The node's obstacle for car and truck, or null. */
export function readObstacle(tags: OsmTags): NodeObstacle | null {
  const highway = tags.highway;
  if (highway === undefined) return null;
  const seconds = SECONDS[highway];
  if (seconds === undefined) return null;
  if (highway === 'traffic_signals') return { seconds, kind: directionBits(tags['traffic_signals:direction'] ?? tags.direction), signal: true };
  const direction = directionBits(tags.direction);
  if (highway === 'stop') {
    if (tags.stop === 'minor') return { seconds, kind: OBSTACLE_MINOR | direction, signal: false };
    // Only a stop sign with no usable direction (none, or one OSRM does not read, e.g. degrees) is
    // placed by the nearest-intersection rule; `direction=both` binds everyone.
    return { seconds, kind: direction === 0 && tags.direction !== 'both' ? OBSTACLE_STOP : direction, signal: false };
  }
  return { seconds, kind: direction, signal: false };
}
