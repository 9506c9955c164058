import * as vscode from 'vscode';
import type { ProblemLocation } from '../../shared/protocol';
import { openablePath, type OpenableFiles } from './openablePath';

/**
 * Opens a place the panel names: a file in the workspace at its line (a problem's place, or a
 * file an answer links to, relative to the workspace), or, for a user setting, the user
 * settings.json at the setting (VS Code finds the file, profiles included).
 */
export async function openLocation(location: ProblemLocation, allowed: () => OpenableFiles): Promise<void> {
  if (location.path) {
    const real = await openablePath(location.path, allowed());
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(real));
    const line = Math.max(0, Math.min((location.line ?? 1) - 1, doc.lineCount - 1));
    const column = Math.max(0, (location.column ?? 1) - 1);
    await vscode.window.showTextDocument(doc, { selection: new vscode.Range(line, column, line, column) });
    return;
  }
  if (location.setting)
    await vscode.commands.executeCommand('workbench.action.openSettingsJson', { revealSetting: { key: location.setting } });
}
