import * as path from 'node:path';
import * as vscode from 'vscode';
import type { EditorSelection } from '../attachments/readAttachment';
import type { PanelEditor } from '../panel/panelController';

/** Files offered by "attach a file": what the explorer would show, without dependencies and build output. */
const PICK_EXCLUDE = '{**/node_modules/**,**/.git/**,**/dist/**,**/out/**,**/.subagents/**}';
const PICK_LIMIT = 5000;

/** The panel's editor port over the vscode API: the active selection, a file pick, Insert at cursor. */
export function vscodeEditor(): PanelEditor {
  return {
    selection: () => {
      const editor = vscode.window.activeTextEditor;
      if (!editor || editor.selection.isEmpty) return undefined;
      const { selection, document } = editor;
      // A selection that ends at the start of a line does not take that line.
      const endLine =
        selection.end.character === 0 && selection.end.line > selection.start.line ? selection.end.line : selection.end.line + 1;
      const selected: EditorSelection = {
        path: document.uri.scheme === 'file' ? document.uri.fsPath : undefined,
        name: path.basename(document.uri.path) || document.uri.toString(),
        startLine: selection.start.line + 1,
        endLine,
        text: document.getText(selection),
      };
      return selected;
    },
    pickFile: async () => {
      const files = await vscode.workspace.findFiles('**/*', PICK_EXCLUDE, PICK_LIMIT);
      const items = files
        .filter((uri) => uri.scheme === 'file')
        .map((uri) => ({ label: vscode.workspace.asRelativePath(uri, false), uri }))
        .sort((a, b) => a.label.localeCompare(b.label));
      const picked = await vscode.window.showQuickPick(items, {
        title: 'Attach a file to the next message',
        placeHolder: 'Type to search the workspace',
        matchOnDescription: true,
      });
      return picked?.uri.fsPath;
    },
    insertAtCursor: async (text) => {
      const editor = vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors[0];
      if (!editor) return false;
      const done = await editor.edit((edit) => {
        for (const selection of editor.selections) edit.replace(selection, text);
      });
      if (done) await vscode.window.showTextDocument(editor.document, { viewColumn: editor.viewColumn, preserveFocus: false });
      return done;
    },
  };
}
