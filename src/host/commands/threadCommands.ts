import * as path from 'node:path';
import * as vscode from 'vscode';
import { exportThread, type ExportFormat } from '../../core/storage/threads/exportThread';
import { renderRunTree } from '../../core/storage/threads/runTreeText';
import { readThreadArchive, ThreadArchiveError } from '../../core/storage/threads/threadArchive';
import { ThreadExistsError, type ThreadMeta, type ThreadStore } from '../../core/storage/threads/threadStore';
import { relativeTime } from '../../shared/relativeTime';
import { EMPTY_TREE, foldRunEvents } from '../../shared/runTree';
import type { PanelController } from '../panel/panelController';
import { openThreadCommand } from './openThreadCommand';

/** Show Run Tree's read-only documents: `subagents-tree:/<title>.txt?<threadId>`. */
const TREE_SCHEME = 'subagents-tree';

export interface ThreadCommandDeps {
  store: ThreadStore;
  controller: PanelController;
  /** Where exports and imports are offered first (exportFolder.ts), and the folder the user then chose, remembered. */
  exportFolder: { proposed(): string; chosen(folder: string): Promise<void> };
  /** Opens a conversation in the panel. */
  showThread: (threadId: string) => Promise<void>;
}

/**
 * "Export Thread", "Delete Thread" and "Show Run Tree" from the palette: each acts on the
 * conversation open in the panel, or asks which when none is, and says why when there is none.
 * "Delete All Threads" asks once; "Import Thread" reads a JSON export back.
 */
export class ThreadCommands implements vscode.Disposable {
  private readonly trees = new vscode.EventEmitter<vscode.Uri>();
  private readonly registration: vscode.Disposable;

  constructor(private readonly deps: ThreadCommandDeps) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(TREE_SCHEME, {
      onDidChange: this.trees.event,
      provideTextDocumentContent: (uri) => this.treeText(uri.query),
    });
  }

  async exportThread(): Promise<void> {
    const meta = await this.pick('Export which conversation?', true);
    if (!meta) return;
    const format = await vscode.window.showQuickPick(
      [
        {
          label: 'Markdown',
          description: '.md',
          detail: 'Each run as a section under its parent: task, tool calls, answer. To read or share.',
          format: 'md' as ExportFormat,
        },
        {
          label: 'JSON',
          description: '.json',
          detail: 'The thread and every event of it and its subagents, as stored. To keep or feed to other tools.',
          format: 'json' as ExportFormat,
        },
      ],
      { title: `Export "${meta.title}"`, placeHolder: 'In which format?' },
    );
    if (!format) return;
    const family = await this.deps.store.getFamily(meta.id);
    if (!family) throw new Error('That conversation is no longer there; it may have been deleted.');
    const exported = exportThread(family, format.format, Date.now());
    const target = await vscode.window.showSaveDialog({
      title: `Export "${meta.title}"`,
      defaultUri: vscode.Uri.file(path.join(this.deps.exportFolder.proposed(), `${fileNameOf(meta.title)}.${exported.fileExtension}`)),
      filters: format.format === 'md' ? { Markdown: ['md'] } : { JSON: ['json'] },
      saveLabel: 'Export',
    });
    if (!target) return;
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(exported.text));
    if (target.scheme === 'file') await this.deps.exportFolder.chosen(path.dirname(target.fsPath));
    const open = await vscode.window.showInformationMessage(
      `Exported "${meta.title}" to ${vscode.workspace.asRelativePath(target, false)}.`,
      'Open',
    );
    if (open) await vscode.window.showTextDocument(target);
  }

  /** "Open Thread…": any conversation from a quick pick (openThreadCommand.ts). */
  async openThread(): Promise<void> {
    await openThreadCommand({
      list: () => this.deps.store.list(),
      openThreadId: () => this.deps.controller.openThreadId,
      pick: (items, options) => Promise.resolve(vscode.window.showQuickPick(items, { ...options, matchOnDetail: true })),
      show: (threadId) => this.deps.showThread(threadId),
      info: (message) => void vscode.window.showInformationMessage(message),
      now: () => Date.now(),
    });
  }

  async deleteThread(): Promise<void> {
    const meta = await this.pick('Delete which conversation?', false);
    if (!meta) return;
    if (await this.deps.controller.deleteThread(meta.id))
      void vscode.window.showInformationMessage(`Deleted "${meta.title}" and its subagents' threads.`);
  }

  async deleteAllThreads(): Promise<void> {
    const result = await this.deps.controller.deleteAllThreads();
    if (result === undefined) {
      if ((await this.deps.store.list()).every((t) => t.parentThreadId !== null))
        void vscode.window.showInformationMessage('There are no conversations to delete.');
      return;
    }
    const kept = result.kept
      ? ` ${result.kept} still working ${result.kept === 1 ? 'was' : 'were'} kept; stop ${result.kept === 1 ? 'it' : 'them'} and run this again to delete ${result.kept === 1 ? 'it' : 'them'}.`
      : '';
    void vscode.window.showInformationMessage(
      `Deleted ${result.deleted} conversation${result.deleted === 1 ? '' : 's'} and their subagents' threads.${kept}`,
    );
  }

  /** Reads a JSON export (Export Thread…, `subagents threads export --format json`) into this window's store and shows it. */
  async importThread(): Promise<void> {
    const picked = await vscode.window.showOpenDialog({
      title: 'Import a conversation exported as JSON',
      defaultUri: vscode.Uri.file(this.deps.exportFolder.proposed()),
      filters: { JSON: ['json'] },
      canSelectMany: false,
      openLabel: 'Import',
    });
    const file = picked?.[0];
    if (!file) return;
    if (file.scheme === 'file') await this.deps.exportFolder.chosen(path.dirname(file.fsPath));
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
    let threads;
    try {
      threads = readThreadArchive(text, Date.now());
      await this.deps.store.importThreads(threads);
    } catch (error) {
      if (error instanceof ThreadArchiveError || error instanceof ThreadExistsError)
        throw new Error(`Cannot import ${path.basename(file.fsPath)}: ${error.message}`);
      throw error;
    }
    const root = threads[0]!.meta;
    await this.deps.showThread(root.id);
    void vscode.window.showInformationMessage(
      `Imported "${root.title}" with ${threads.length - 1} subagent thread${threads.length === 2 ? '' : 's'}.`,
    );
  }

  async showRunTree(): Promise<void> {
    const meta = await this.pick('Show the run tree of which conversation?', true);
    if (!meta) return;
    const uri = vscode.Uri.from({ scheme: TREE_SCHEME, path: `/${fileNameOf(meta.title)}.txt`, query: meta.id });
    // Opened before: read it afresh.
    this.trees.fire(uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { preview: true, viewColumn: vscode.ViewColumn.Active });
  }

  dispose(): void {
    this.registration.dispose();
    this.trees.dispose();
  }

  private async treeText(threadId: string): Promise<string> {
    const family = await this.deps.store.getFamily(threadId);
    if (!family) return 'That conversation is no longer there; it may have been deleted.\n';
    const now = Date.now();
    const tree = foldRunEvents(EMPTY_TREE, family.events);
    const when = new Date(now).toLocaleTimeString();
    return `${family.meta.title}\nThe run tree at ${when}; run "Subagents: Show Run Tree" again to see it as it is later.\n\n${renderRunTree(tree, now)}\n`;
  }

  /** The open conversation (when `preferOpen`), else the one the user picks; undefined when there is none or they back out. */
  private async pick(title: string, preferOpen: boolean): Promise<ThreadMeta | undefined> {
    const threads = (await this.deps.store.list()).filter((t) => t.parentThreadId === null);
    const openId = this.deps.controller.openThreadId;
    const open = threads.find((t) => t.id === openId);
    if (preferOpen && open) return open;
    if (threads.length === 0) {
      void vscode.window.showInformationMessage('There are no conversations yet: ask something in the Subagents panel first.');
      return undefined;
    }
    const now = Date.now();
    const ordered = open ? [open, ...threads.filter((t) => t !== open)] : threads;
    const items = ordered.map((t) => ({
      label: t.title,
      description: `${t === open ? 'open in the panel · ' : ''}${relativeTime(t.updatedAt, now)} · ${t.status} · ${t.runCount} turn${t.runCount === 1 ? '' : 's'}`,
      meta: t,
    }));
    return (await vscode.window.showQuickPick(items, { title, placeHolder: 'Type to search by title', matchOnDescription: true }))?.meta;
  }
}

/** A title as a file name: letters, digits and dashes, at most 60 characters. */
export function fileNameOf(title: string): string {
  return (
    title
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60)
      .replace(/-+$/, '') || 'thread'
  );
}
