import { askUserTool } from './builtin/askUser';
import { editFileTool } from './builtin/editFile';
import { findFilesTool } from './builtin/findFiles';
import { installExtensionTool } from './builtin/installExtension';
import { installPackageTool } from './builtin/installPackage';
import { listDirTool } from './builtin/listDir';
import { openFileTool } from './builtin/openFile';
import { readFileTool } from './builtin/readFile';
import { runCommandTool } from './builtin/runCommand';
import { searchTextTool } from './builtin/searchText';
import { todoWriteTool } from './builtin/todoWrite';
import { webFetchTool } from './builtin/webFetch';
import type { WorkspaceToolDeps } from './builtin/toolDeps';
import { writeFileTool } from './builtin/writeFile';
import type { AnyToolSpec } from './toolSpec';

export type { WorkspaceToolDeps } from './builtin/toolDeps';

/** Every built-in workspace tool, before the child and trust filters. */
export function workspaceTools(deps: WorkspaceToolDeps): AnyToolSpec[] {
  return [
    readFileTool(deps),
    listDirTool(deps),
    findFilesTool(deps),
    searchTextTool(deps),
    writeFileTool(deps),
    editFileTool(deps),
    runCommandTool(deps),
    askUserTool(deps),
    openFileTool(deps),
    installPackageTool(deps),
    installExtensionTool(deps),
    webFetchTool(deps),
    todoWriteTool(),
  ];
}
