import * as vscode from 'vscode';
import { lmToolCatalog } from './lmToolCatalog';

/** The real vscode module behind the editor tools: only glue, the logic is in lmToolCatalog.ts. */
export const vscodeEditorTools = lmToolCatalog({
  lm: {
    get tools() {
      return vscode.lm.tools;
    },
    invokeTool: (name, options, token) => vscode.lm.invokeTool(name, options, token as vscode.CancellationToken),
  },
  LanguageModelTextPart: vscode.LanguageModelTextPart,
  CancellationTokenSource: vscode.CancellationTokenSource,
});
