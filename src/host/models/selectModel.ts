import * as vscode from 'vscode';
import { modelLabel } from '../../shared/modelLabel';
import type { ModelChooser } from './modelChooser';

const GROUPS = { editor: "The editor's models", local: 'On this machine', key: 'With an API key', demo: 'The demo' } as const;

/**
 * "Subagents: Select Model": the first-run chooser's choices (the editor's models, a local
 * Ollama, an API key) in a quick pick, whether or not a model is set; the pick is saved where it
 * takes effect, and a message says which model is in use now and where it was written.
 */
export async function selectModelCommand(chooser: ModelChooser, current: string): Promise<void> {
  const { choices, notes } = await chooser.list();
  const items: (vscode.QuickPickItem & { id?: string })[] = [];
  for (const group of ['editor', 'local', 'key', 'demo'] as const) {
    const inGroup = choices.filter((c) => c.group === group);
    if (inGroup.length === 0) continue;
    items.push({ label: GROUPS[group], kind: vscode.QuickPickItemKind.Separator });
    for (const c of inGroup) items.push({ label: c.label, description: c.detail, id: c.id });
  }
  // What was looked for and not found, so an empty list is never a mystery.
  for (const note of notes) items.push({ label: '$(info) Not found', detail: note, alwaysShow: true });
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Select the model for Subagents',
    placeHolder: `In use: ${current ? `${modelLabel(current)} (${current})` : 'no model is set'}`,
    matchOnDetail: true,
  });
  if (!picked?.id) return;
  const chosen = await chooser.choose(picked.id);
  if (chosen)
    void vscode.window.showInformationMessage(`The model is now ${chosen.spec} (saved as "subagents.model" in ${chosen.savedIn}).`);
}
