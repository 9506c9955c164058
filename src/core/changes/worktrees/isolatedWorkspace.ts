import { readInside } from '../../platform/files/readInside';
import { writeInside } from '../../platform/files/writeInside';
import type { Workspace } from '../../ports';

/**
 * The Workspace port of a run confined to a worktree: its root is the worktree, files are read and
 * written there by the core's own reader and writer (never an editor's buffer of the workspace's
 * file of the same name), and commands still run where the user sees them, in the worktree.
 */
export function isolatedWorkspace(main: Workspace, root: string): Workspace {
  return {
    root,
    get trusted() {
      return main.trusted;
    },
    readFile: (path) => readInside(root, path),
    writeFile: (path, content, expected) => writeInside(root, path, content, expected),
    runCommand: (request) => main.runCommand(request),
    openFile: (path, line) => main.openFile(path, line),
    askUser: (question, signal) => main.askUser(question, signal),
    installExtension: async () => {
      throw new Error('A run in a worktree cannot install editor extensions: they would change the editor, not the worktree.');
    },
  };
}
