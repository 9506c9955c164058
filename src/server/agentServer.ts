import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  CodeActionKind,
  DiagnosticSeverity,
  TextDocumentSyncKind,
  type CodeAction,
  type Connection,
  type Diagnostic,
  type InitializeParams,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { dialectOfPath } from '../core/config/agentFiles/agentFolders';
import type { ProblemFix, ProfileProblem } from '../core/config/profiles/profileProblem';
import { completions } from './agentCompletion';
import { hoverAt } from './agentHover';
import { AgentWorkspace } from './agentWorkspace';
import { CONFIGURE, type AgentServerOptions } from './serverProtocol';

const SEVERITY = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
} as const;

function toDiagnostic(p: ProfileProblem): Diagnostic {
  const range = p.range ?? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  return {
    range,
    severity: SEVERITY[p.severity],
    code: p.code,
    source: 'subagents',
    message: p.message,
    ...(p.fixes ? { data: { fixes: p.fixes } } : {}),
  };
}

const pathOf = (uri: string): string | undefined => (uri.startsWith('file:') ? fileURLToPath(uri) : undefined);

/**
 * The agent-file language server: diagnostics from the one validator (the same problems the
 * panel and `subagents profiles validate` report, at their exact ranges), completion of fields,
 * tools, agents and models, hover docs and quick fixes. It keeps no state of its own beyond the
 * open documents and a cache of files it read.
 */
export function startAgentServer(connection: Connection): void {
  const documents = new Map<string, TextDocument>();
  const workspace = new AgentWorkspace(undefined);
  let published = new Set<string>();
  let options: AgentServerOptions = {};

  const publish = () => {
    const paths = workspace.pathsWithProblems();
    for (const doc of documents.values()) {
      const path = pathOf(doc.uri);
      if (path) paths.add(path);
    }
    for (const path of paths) {
      void connection.sendDiagnostics({ uri: pathToFileURL(path).href, diagnostics: workspace.problemsFor(path).map(toDiagnostic) });
    }
    // A file that had problems and has none now: clear what the editor shows.
    for (const uri of published) if (!paths.has(fileURLToPath(uri))) void connection.sendDiagnostics({ uri, diagnostics: [] });
    published = new Set([...paths].map((p) => pathToFileURL(p).href));
  };

  let root: string | undefined;
  connection.onInitialize((params: InitializeParams) => {
    options = (params.initializationOptions ?? {}) as AgentServerOptions;
    const folder = params.workspaceFolders?.[0]?.uri ?? params.rootUri ?? undefined;
    root = folder ? pathOf(folder) : undefined;
    workspace.configure(root, options);
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        completionProvider: { triggerCharacters: [' ', '[', ',', '-', "'", '"'] },
        hoverProvider: true,
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
      },
    };
  });
  connection.onInitialized(() => publish());

  connection.onNotification(CONFIGURE, (next: AgentServerOptions) => {
    options = next;
    workspace.configure(root, next);
    publish();
  });

  connection.onDidOpenTextDocument(({ textDocument }) => {
    const doc = TextDocument.create(textDocument.uri, textDocument.languageId, textDocument.version, textDocument.text);
    documents.set(doc.uri, doc);
    const path = pathOf(doc.uri);
    if (path) workspace.setOpen(path, doc.getText());
    publish();
  });
  connection.onDidChangeTextDocument(({ textDocument, contentChanges }) => {
    const doc = documents.get(textDocument.uri);
    if (!doc) return;
    const next = TextDocument.update(doc, contentChanges, textDocument.version);
    documents.set(next.uri, next);
    const path = pathOf(next.uri);
    if (path) workspace.setOpen(path, next.getText());
    publish();
  });
  connection.onDidCloseTextDocument(({ textDocument }) => {
    documents.delete(textDocument.uri);
    const path = pathOf(textDocument.uri);
    if (path) workspace.close(path);
    publish();
  });
  connection.onDidChangeWatchedFiles(({ changes }) => {
    for (const change of changes) {
      const path = pathOf(change.uri);
      if (path) workspace.diskChanged(path);
    }
    publish();
  });

  connection.onCompletion(({ textDocument, position }) => {
    const doc = documents.get(textDocument.uri);
    const path = pathOf(textDocument.uri);
    const dialect = path ? dialectOfPath(path) : undefined;
    if (!doc || !dialect) return [];
    const agents = [...workspace.profiles().profiles.keys()];
    return completions(doc.getText(), position, { dialect, agents, aliases: options.settings?.modelAliases ?? {} });
  });

  connection.onHover(({ textDocument, position }) => {
    const path = pathOf(textDocument.uri);
    const dialect = path ? dialectOfPath(path) : undefined;
    const result = path ? workspace.file(path) : undefined;
    if (!dialect || !result?.frontMatter) return null;
    const models = {
      ...(options.models?.editorModels ? { editorModels: options.models.editorModels } : {}),
      hasKey: (p: 'openai' | 'anthropic') => options.models?.keys?.includes(p) ?? !options.models,
      keyHint: () => 'run "Subagents: Set API Key"',
    };
    const hover = hoverAt(result.frontMatter, position, dialect, options.settings?.modelAliases ?? {}, models);
    return hover ? { contents: { kind: 'markdown', value: hover.markdown }, range: hover.range } : null;
  });

  connection.onCodeAction(({ textDocument, context }) => {
    const actions: CodeAction[] = [];
    for (const diagnostic of context.diagnostics) {
      const fixes = (diagnostic.data as { fixes?: ProblemFix[] } | undefined)?.fixes ?? [];
      for (const fix of fixes) {
        actions.push({
          title: fix.title,
          kind: CodeActionKind.QuickFix,
          diagnostics: [diagnostic],
          isPreferred: fixes.length === 1,
          edit: { changes: { [textDocument.uri]: [{ range: fix.range ?? diagnostic.range, newText: fix.newText }] } },
        });
      }
    }
    return actions;
  });

  connection.listen();
}
