import * as vscode from 'vscode';
import { verifyJudgedFile } from '../../core/platform/files/verifyJudgedFile';
import { nodeWorkspace } from '../../core/engine/nodeWorkspace';
import type { Workspace } from '../../core/ports';
import { locateRipgrep } from '../../core/tools/search/ripgrep/locateRipgrep';
import type { CommandTerminals } from '../commands/commandTerminals';

/** The editor's own ripgrep (else `rg` on the PATH), probed once per window, on the first search. */
let ripgrep: { path: string | undefined } | undefined;
function editorRipgrep(): string | undefined {
  ripgrep ??= { path: locateRipgrep({ appRoot: vscode.env.appRoot }) };
  return ripgrep.path;
}

/**
 * The Workspace port in the editor. A write to a file open in an editor goes through a
 * WorkspaceEdit, so the editor updates and Undo works, and is saved, so the disk that commands and
 * searches read matches what the user sees; other writes go through the core's writer. Reads prefer
 * an open editor's text. Commands run in a terminal the user can watch.
 */
export function vscodeWorkspace(root: string, terminals: CommandTerminals): Workspace {
  const node = nodeWorkspace({ root });
  const openDocument = (path: string) => vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === path);
  return {
    root,
    get trusted() {
      return vscode.workspace.isTrusted;
    },
    get ripgrep() {
      return editorRipgrep();
    },
    readFile: async (path) => openDocument(path)?.getText() ?? node.readFile(path),
    async writeFile(path, content, expected) {
      const document = expected ? openDocument(path) : undefined;
      // A file no editor shows is written by the core's writer, bound to the file that was judged.
      if (!document || !expected) return node.writeFile(path, content, expected);
      // An open file goes through a WorkspaceEdit, so Undo works; the target is checked right before.
      await verifyJudgedFile(root, path, expected);
      const edit = new vscode.WorkspaceEdit();
      edit.replace(document.uri, new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)), content);
      if (!(await vscode.workspace.applyEdit(edit))) throw new Error('the editor did not apply the edit');
      await document.save();
    },
    runCommand: (request) => terminals.run(request),
    async openFile(path, line) {
      const position = new vscode.Position(Math.max(0, (line ?? 1) - 1), 0);
      await vscode.window.showTextDocument(vscode.Uri.file(path), {
        preview: true,
        preserveFocus: false,
        selection: new vscode.Range(position, position),
      });
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
