import { ProposedFeatures, createConnection } from 'vscode-languageserver/node';
import { startAgentServer } from './agentServer';

// The entry of dist/server.js: the extension's language client starts it over IPC (or --stdio).
startAgentServer(createConnection(ProposedFeatures.all));
