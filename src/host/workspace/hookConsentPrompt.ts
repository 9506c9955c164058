import * as os from 'node:os';
import * as vscode from 'vscode';
import { hooksToRun, type HooksToRun } from '../../core/access/hooks/hookConsent';
import { readHooks, type SettingsHooks } from '../../core/config/hooks/readHooks';

const KEY = 'subagents.hooksAllowed';
const ALLOW = 'Allow hooks';

/**
 * The hooks of each request in the editor. The user's own (`~/.claude/settings.json`, user
 * settings) run as declared; the repository's (`.claude/settings*.json`, `.github/hooks`, the
 * workspace's `subagents.hooks`) run once the user allows them in a prompt that lists the
 * commands. The answer is remembered per workspace (workspace state, outside its files, so a
 * project cannot allow its own hooks) for the fingerprint of those declarations and the scripts
 * they name (readHooks.ts): a change asks again. "Not now" is remembered for this window only.
 * In an untrusted workspace they never run.
 */
export function hookConsentPrompt(state: vscode.Memento, root: string | undefined): () => Promise<HooksToRun> {
  const declinedThisWindow = new Set<string>();
  return async () => {
    const declared = readHooks(root ?? os.tmpdir(), settingsHooks(root !== undefined));
    const repository = declared.hooks.filter((h) => h.scope === 'repository');
    const fingerprint = declared.repositoryFingerprint;
    if (repository.length === 0 || !root || !vscode.workspace.isTrusted) return hooksToRun(declared, false);
    if (state.get<string>(KEY) === fingerprint) return hooksToRun(declared, true);
    if (declinedThisWindow.has(fingerprint)) return hooksToRun(declared, false);
    const detail = repository.map((h) => `${h.event}${h.matcher ? ` (${h.matcher})` : ''}: ${h.command}  — ${h.source}`).join('\n');
    const answer = await vscode.window.showWarningMessage(
      `This workspace declares ${repository.length} hook${repository.length === 1 ? '' : 's'}: commands that run as you, outside the sandbox, while agents work. Run them?`,
      {
        modal: true,
        detail: `${detail}\n\nYou are asked again whenever these hooks or their scripts change. The CLI runs them with --allow-hooks.`,
      },
      ALLOW,
    );
    if (answer === ALLOW) {
      await state.update(KEY, fingerprint);
      return hooksToRun(declared, true);
    }
    declinedThisWindow.add(fingerprint);
    return hooksToRun(declared, false);
  };
}

/** `subagents.hooks` by scope: the user's runs as declared, a workspace's needs consent. */
function settingsHooks(hasFolder: boolean): SettingsHooks[] {
  const seen = vscode.workspace.getConfiguration('subagents').inspect<unknown>('hooks');
  const out: SettingsHooks[] = [];
  if (seen?.globalValue !== undefined)
    out.push({ value: seen.globalValue, scope: 'user', source: '"subagents.hooks" in your user settings' });
  if (hasFolder && seen?.workspaceValue !== undefined)
    out.push({ value: seen.workspaceValue, scope: 'repository', source: '"subagents.hooks" in the workspace settings' });
  if (hasFolder && seen?.workspaceFolderValue !== undefined)
    out.push({ value: seen.workspaceFolderValue, scope: 'repository', source: '"subagents.hooks" in the folder settings' });
  return out;
}
