import * as vscode from 'vscode';
import type * as AgentClient from './agentFileClient';
import { START_AGENT_FILE_SERVER } from './agentFileServerCommand';

/** An agent file by where it lives (kept here, not imported, so activation loads nothing more). */
const AGENT_FILE =
  /[\\/](\.vscode[\\/]agents[\\/][^\\/]+\.md|\.claude[\\/]agents[\\/][^\\/]+\.md|\.github[\\/]agents[\\/][^\\/]+\.agent\.md|\.copilot[\\/]agents[\\/][^\\/]+\.md)$/;

/**
 * Activation's part of agent files, kept light: the two commands, and a watch for the first agent
 * file opened. Both load dist/agentClient.js (the language client) only then, and the client
 * starts dist/server.js.
 */
export function registerAgentFiles(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): void {
  let client: Promise<void> | undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const load = () => require('./agentClient.js') as typeof AgentClient;
  const start = () => {
    client ??= (async () => {
      const started = Date.now();
      context.subscriptions.push(await load().startAgentFileClient(context));
      log.info(`Agent-file language server started in ${Date.now() - started} ms`);
    })().catch((error: unknown) =>
      log.error(`The agent-file language server did not start: ${error instanceof Error ? error.message : String(error)}`),
    );
    return client;
  };
  const check = (doc: vscode.TextDocument) => {
    if (doc.uri.scheme === 'file' && AGENT_FILE.test(doc.uri.fsPath)) void start();
  };
  vscode.workspace.textDocuments.forEach(check);
  context.subscriptions.push(
    vscode.workspace.onDidOpenTextDocument(check),
    vscode.commands.registerCommand('subagents.newAgentFile', async () => {
      void start();
      await load().newAgentFileCommand();
    }),
    vscode.commands.registerCommand('subagents.importAgents', async () => {
      void start();
      await load().importAgentsCommand();
    }),
    // The engine asks for this when agent files have errors or warnings: the server lists them in the Problems view.
    vscode.commands.registerCommand(START_AGENT_FILE_SERVER, () => start()),
  );
}
