/**
 * The scripted demo (the demo workspace, `npm run demo`): where its script lives and the question
 * it plays, so the empty panel can suggest that question while the demo model is the one in use.
 */
export const DEMO_SCRIPT = '.vscode/demo-script.json';
export const DEMO_MODEL = `scripted:${DEMO_SCRIPT}`;
export const DEMO_QUESTION = 'How are invoice totals computed, and is the rounding right?';

/** What the empty panel suggests asking with this model. */
export function startersFor(model: string): string[] {
  return model === DEMO_MODEL ? [DEMO_QUESTION] : [];
}
