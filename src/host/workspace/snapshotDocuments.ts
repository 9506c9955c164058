import * as vscode from 'vscode';

/** The scheme of the read-only documents that show a snapshot (the before side of a run's diff). */
export const SNAPSHOT_SCHEME = 'subagents-snapshot';

/** A snapshot as a document: its path names it (and its language), the query says which content and whose thread. */
export function snapshotUri(path: string, hash: string | null, threadId: string): vscode.Uri {
  const query = new URLSearchParams({ hash: hash ?? '', thread: threadId }).toString();
  return vscode.Uri.from({ scheme: SNAPSHOT_SCHEME, path: `/${path}`, query });
}

/** Serves snapshot documents; a content provider's documents cannot be edited or saved. */
export function registerSnapshotDocuments(read: (hash: string | null, threadId: string) => Promise<string>): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(SNAPSHOT_SCHEME, {
    provideTextDocumentContent: (uri) => {
      const query = new URLSearchParams(uri.query);
      return read(query.get('hash') || null, query.get('thread') ?? '');
    },
  });
}
