import type { FrameLocator, Locator } from 'playwright-core';

// Where the e2e tests find things in the panel's DOM, in one place: by the data-* attributes the
// webview keeps for this (and that its own tests in test/webview pin down), never by styling.

/** The last answer of the conversation; with a state, only once it is in that state. */
export function lastAnswer(panel: FrameLocator, state?: string): Locator {
  return panel.locator(state ? `.message.assistant[data-state="${state}"]` : '.message.assistant').last();
}

/** A run's node in the tree, by its agent. */
export function runNode(panel: FrameLocator, agent: string): Locator {
  return panel.locator(`[role="treeitem"][data-run-id][data-agent="${agent}"]`).first();
}

/** The depth-1 runs, as {agent, state}, sorted by agent. */
export async function childRuns(panel: FrameLocator): Promise<{ agent: string | null; state: string | null }[]> {
  const nodes = panel.locator('[role="treeitem"][data-run-id][data-depth="1"]');
  const runs = await nodes.evaluateAll((els) =>
    els.map((el) => ({ agent: el.getAttribute('data-agent'), state: el.getAttribute('data-state') })),
  );
  const unique = new Map(runs.map((r) => [`${r.agent}`, r]));
  return [...unique.values()].sort((a, b) => String(a.agent).localeCompare(String(b.agent)));
}

/** A link to a workspace file in the answers, by the text it shows (`src/invoice.ts:18`). */
export function fileLink(panel: FrameLocator, text: string): Locator {
  return panel.locator('a.file-link[data-path]', { hasText: text }).first();
}

/** The prompt box and its send button. */
export const prompt = (panel: FrameLocator): Locator => panel.locator('#prompt');
export const sendButton = (panel: FrameLocator): Locator => panel.locator('#send');
