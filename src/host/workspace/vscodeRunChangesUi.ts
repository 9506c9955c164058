import * as vscode from 'vscode';
import type { RunChangesUi } from '../panel/panelRunChanges';
import { proposedUri } from './proposedDocuments';
import { snapshotUri } from './snapshotDocuments';

/** The editor's side of the panel's run changes: modal questions and VS Code's diff editor. */
export const vscodeRunChangesUi: RunChangesUi = {
  async confirm(message, detail, action) {
    return (await vscode.window.showWarningMessage(message, { modal: true, detail }, action)) === action;
  },
  async openDiff(sides, { threadId, title }) {
    const before = snapshotUri(sides.path, sides.before, threadId);
    const after = 'file' in sides.after ? vscode.Uri.file(sides.after.file) : snapshotUri(sides.path, sides.after.snapshot, threadId);
    await vscode.commands.executeCommand('vscode.diff', before, after, title, { preview: true });
  },
  async openProposedDiff(approvalId, path, title) {
    const sides = [proposedUri(path, approvalId, 'before'), proposedUri(path, approvalId, 'after')];
    await vscode.commands.executeCommand('vscode.diff', ...sides, title, { preview: true });
  },
};
