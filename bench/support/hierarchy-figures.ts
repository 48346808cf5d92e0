// What the contraction benchmarks print of a run: the process's CPU seconds and the shortcuts a hierarchy holds.
import type { Hierarchy } from '../../core/routing/contraction';

export const cpuSeconds = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

/** Arcs with a middle vertex (childA set) are shortcuts; base arcs have none. */
export function shortcutCount(h: Hierarchy): number {
  let n = 0;
  for (const a of h.childA) if (a >= 0) n++;
  return n;
}
