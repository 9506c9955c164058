import * as vscode from 'vscode';
import type { OpenReadmeDeps } from './openReadme';
import type { ReadmeSection } from './readmeSections';

/**
 * "Subagents: Open README" over the editor: the README in the extension's folder (vsce packs it
 * as `readme.md`, a checkout has `README.md`), shown by the built-in Markdown preview.
 */
export function openReadmeDeps(extensionUri: vscode.Uri): OpenReadmeDeps {
  return {
    folder: extensionUri.fsPath,
    find: async () => {
      const entries = await Promise.resolve(vscode.workspace.fs.readDirectory(extensionUri)).catch(() => []);
      const name = entries.find(([entry, type]) => type === vscode.FileType.File && /^readme\.md$/i.test(entry))?.[0];
      if (name === undefined) return undefined;
      const uri = vscode.Uri.joinPath(extensionUri, name);
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
      return { text, preview: (section) => showReadme(uri, section) };
    },
    warn: (message) => void vscode.window.showWarningMessage(message),
  };
}

/**
 * The preview scrolls to the heading whose id is the URI's fragment (markdown.showPreview hands
 * it to the preview, which scrolls there while `markdown.preview.scrollPreviewWithEditor` is on,
 * its default). Without the Markdown extension (disabled), the text opens at the heading instead.
 */
async function showReadme(uri: vscode.Uri, section: ReadmeSection | undefined): Promise<void> {
  try {
    await vscode.commands.executeCommand('markdown.showPreview', section ? uri.with({ fragment: section.slug }) : uri);
  } catch (error) {
    const at = new vscode.Position(section?.line ?? 0, 0);
    await vscode.window.showTextDocument(uri, { selection: new vscode.Range(at, at), preview: true });
    const reason = error instanceof Error ? error.message : String(error);
    void vscode.window.showWarningMessage(`The Markdown preview is not available (${reason}), so the README opened as text.`);
  }
}
