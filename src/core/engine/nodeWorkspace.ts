import { readInside } from '../platform/files/readInside';
import { writeInside } from '../platform/files/writeInside';
import type { Workspace } from '../ports';
import { runProcess } from '../access/sandbox/runProcess';

export interface NodeWorkspaceOptions {
  root: string;
  trusted?: boolean;
  /** A ripgrep binary for find_files and search_text (the CLI passes `rg` from the PATH); without it they walk. */
  ripgrep?: string;
  /** How ask_user reaches a person; without it the question is answered as dismissed. */
  askUser?: (question: string, signal: AbortSignal) => Promise<string | undefined>;
}

/**
 * The Workspace port over the node filesystem and child processes: the CLI's, and the unit tests'.
 * There is no editor here, so open_file has nothing to show and extensions cannot be installed.
 */
export function nodeWorkspace(options: NodeWorkspaceOptions): Workspace {
  return {
    root: options.root,
    trusted: options.trusted ?? true,
    ...(options.ripgrep ? { ripgrep: options.ripgrep } : {}),
    // Both reach the file without following links and check what they opened (fileAccess/).
    readFile: (path) => readInside(options.root, path),
    writeFile: (path, content, expected) => writeInside(options.root, path, content, expected),
    runCommand: (request) => runProcess(request),
    openFile: async () => {},
    askUser: async (question, signal) => (options.askUser ? options.askUser(question, signal) : undefined),
    installExtension: async () => {
      throw new Error('Editor extensions can only be installed from inside VS Code, not from the command line.');
    },
  };
}
