import * as vscode from 'vscode';

/** The scheme of the read-only documents that show a waiting edit's two sides. */
export const PROPOSED_SCHEME = 'subagents-proposed';

/** One side of a waiting edit: its path names it (and its language), the query says which approval and side. */
export function proposedUri(path: string, approvalId: string, side: 'before' | 'after'): vscode.Uri {
  const query = new URLSearchParams({ approval: approvalId, side }).toString();
  return vscode.Uri.from({ scheme: PROPOSED_SCHEME, path: `/${path}`, query });
}

/**
 * Serves the sides of edits that wait for approval, read from what waits (nothing is copied or
 * kept here); an approval answered since says so in the document.
 */
export function registerProposedDocuments(
  change: (approvalId: string) => { before: string | null; after: string } | undefined,
): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(PROPOSED_SCHEME, {
    provideTextDocumentContent: (uri) => {
      const query = new URLSearchParams(uri.query);
      const found = change(query.get('approval') ?? '');
      if (!found) return '(This edit no longer waits for approval: it was answered, or its run ended.)';
      return query.get('side') === 'before' ? (found.before ?? '') : found.after;
    },
  });
}
