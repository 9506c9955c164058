import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Workspace } from '../ports';
import { runProcess } from './runProcess';

export interface NodeWorkspaceOptions {
  root: string;
  trusted?: boolean;
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
    readFile: (path) => readFile(path, 'utf8'),
    writeFile: async (path, content) => {
      await mkdir(dirname(path), { recursive: true });
      // In place, not temp-and-rename: the file keeps its mode (a script stays executable) and links.
      await writeFile(path, content, 'utf8');
    },
    runCommand: (request) => runProcess(request),
    openFile: async () => {},
    askUser: async (question, signal) => (options.askUser ? options.askUser(question, signal) : undefined),
    installExtension: async () => {
      throw new Error('Editor extensions can only be installed from inside VS Code, not from the command line.');
    },
  };
}
