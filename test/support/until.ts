// Waiting in a test for an outcome that comes in the background (a thread's round, a delivery), without
// asserting how long it takes: the test fails only if it never comes within `ms`.

/** Resolves once `ok()` holds; polls every `everyMs`, throws naming `what` after `ms`. */
export async function until(what: string, ok: () => boolean | Promise<boolean>, ms: number, everyMs = 10): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
