/**
 * Whether a sandboxed process ended because bubblewrap could not lay the sandbox's mounts, before
 * anything ran in it. Seen on a loaded machine when two sandboxes start at the same moment (a
 * mount point one of them made for a missing protected path trips the other). Such a start is
 * safe to try once more. A command that prints exactly this line and exits 1 is run again too:
 * it only gets what it asked for twice.
 */
export function isSandboxSetupFailure(output: string): boolean {
  const trimmed = output.trim();
  return !trimmed.includes('\n') && SETUP_FAILURE.test(trimmed) && trimmed.startsWith('bwrap:');
}

/** The same, said inside an error message (an MCP server's "it wrote: …"). */
export function mentionsSandboxSetupFailure(message: string): boolean {
  return SETUP_FAILURE.test(message);
}

const SETUP_FAILURE = /\bbwrap: (Can't|Cannot|Failed)\b/;
