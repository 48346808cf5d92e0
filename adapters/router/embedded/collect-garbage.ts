// A full garbage collection on demand, for the one moment the gateway needs memory given back at once:
// between letting a re-imported region's network go and reading the new one. The network's arrays
// live in buffers V8 frees only when it collects; left to itself it may read the whole new network
// before collecting the old, and the gateway would hold two regions for a while (the target is
// never two). Node hides `gc` unless started with --expose-gc: the flag is set now and the function
// taken from a fresh context, which is how V8 hands it out.
import v8 from 'node:v8';
import vm from 'node:vm';

let gc: (() => void) | null | undefined;

/** Collects garbage now; false when this runtime does not allow it (nothing happened). */
export function collectGarbage(): boolean {
  if (gc === undefined) {
    const exposed = (globalThis as { gc?: () => void }).gc;
    if (typeof exposed === 'function') gc = exposed;
    else {
      try {
        v8.setFlagsFromString('--expose-gc');
        const made: unknown = vm.runInNewContext('gc');
        gc = typeof made === 'function' ? (made as () => void) : null;
      } catch {
        gc = null;
      }
    }
  }
  if (gc === null) return false;
  // Twice: the first collection finds the buffers dead, the second gives their memory back (measured on
  // Node 20: 500 MiB of dropped buffers stayed resident after one call, went after the second).
  gc();
  gc();
  return true;
}
