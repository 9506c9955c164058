/**
 * Until a condition on the machine holds (a file written, a process gone): the extension host does
 * these on its own schedule and says nothing the test could wait on, so it is polled.
 */
export async function until(what: string, condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
