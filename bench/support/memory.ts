// Memory figures for benchmarks. Run node with --expose-gc so the numbers exclude collectable garbage.
function gc(): void {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (collect !== undefined) {
    // Twice: the first pass can leave objects that only the second finds unreachable (weak refs, finalizers).
    collect();
    collect();
  }
}

export function memory(): { heap: number; arrayBuffers: number; rss: number } {
  gc();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, arrayBuffers: m.arrayBuffers, rss: m.rss };
}

export const mb = (bytes: number): string => `${(bytes / 1048576).toFixed(1)} MB`;
