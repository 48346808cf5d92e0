// Ends the current task and resumes in a new one: work that would hold the main thread for long (the
// first map answer's handling, the map view's start) is cut into tasks between which the browser can
// paint and answer input. An `await` on a resolved promise would not do: its continuation is a microtask
// of the same task.

interface Scheduler {
  yield(): Promise<void>;
}

/**
 * Resolves in a later task. `scheduler.yield()` where the browser has it (the continuation goes before
 * other queued work, so a cut costs no wait behind timers), else a message posted to ourselves (a task
 * without setTimeout's minimum delay).
 */
export function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: Scheduler }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => { channel.port1.close(); resolve(); };
    channel.port2.postMessage(undefined);
  });
}
