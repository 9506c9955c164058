import * as vscode from 'vscode';
import type { ProblemLocation } from '../shared/protocol';
import { openablePath, type OpenableFiles } from './openablePath';

/**
 * Opens where a problem is fixed: a file in the workspace at its line, or, for a user setting,
 * the user settings.json at the setting (VS Code finds the file, profiles included).
 */
export async function openLocation(location: ProblemLocation, allowed: () => OpenableFiles): Promise<void> {
  if (location.path) {
    const real = await openablePath(location.path, allowed());
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(real));
    const line = Math.max(0, Math.min((location.line ?? 1) - 1, doc.lineCount - 1));
    await vscode.window.showTextDocument(doc, { selection: new vscode.Range(line, 0, line, 0) });
    return;
  }
  if (location.setting) await vscode.commands.executeCommand('workbench.action.openSettingsJson', { revealSetting: { key: location.setting } });
}
