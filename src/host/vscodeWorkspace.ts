import * as vscode from 'vscode';
import { nodeWorkspace } from '../core/nodeAdapters/nodeWorkspace';
import type { Workspace } from '../core/ports';
import type { CommandTerminals } from './commandTerminals';

/**
 * The Workspace port in the editor. Writes go through a WorkspaceEdit, so open editors update and
 * Undo works, and are saved, so the disk that commands and searches read matches what the user
 * sees. Reads prefer an open editor's text. Commands run in a terminal the user can watch.
 */
export function vscodeWorkspace(root: string, terminals: CommandTerminals): Workspace {
  const node = nodeWorkspace({ root });
  const openDocument = (path: string) => vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === path);
  return {
    root,
    get trusted() {
      return vscode.workspace.isTrusted;
    },
    readFile: async (path) => openDocument(path)?.getText() ?? node.readFile(path),
    async writeFile(path, content) {
      const uri = vscode.Uri.file(path);
      const edit = new vscode.WorkspaceEdit();
      const exists = await vscode.workspace.fs.stat(uri).then(() => true, () => false);
      if (exists) {
        const document = await vscode.workspace.openTextDocument(uri);
        edit.replace(uri, new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)), content);
      } else {
        edit.createFile(uri, { contents: new TextEncoder().encode(content) });
      }
      if (!(await vscode.workspace.applyEdit(edit))) throw new Error('the editor did not apply the edit');
      if (exists) await (await vscode.workspace.openTextDocument(uri)).save();
    },
    runCommand: (request) => terminals.run(request),
    async openFile(path, line) {
      const position = new vscode.Position(Math.max(0, (line ?? 1) - 1), 0);
      await vscode.window.showTextDocument(vscode.Uri.file(path), { preview: true, preserveFocus: false, selection: new vscode.Range(position, position) });
    },
    async askUser(question, signal) {
      const cancel = new vscode.CancellationTokenSource();
      const onAbort = () => cancel.cancel();
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        return await vscode.window.showInputBox({ title: 'An agent asks', prompt: question, ignoreFocusOut: true }, cancel.token);
      } finally {
        signal.removeEventListener('abort', onAbort);
        cancel.dispose();
      }
    },
    async installExtension(id) {
      await vscode.commands.executeCommand('workbench.extensions.installExtension', id);
    },
  };
}
