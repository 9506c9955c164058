import type { HostToWebview } from '../src/shared/protocol';
import { App } from './app';
import { warmUpMarkdown } from './markdown/markdown';
import { registerToolkit } from './kit/toolkit';
import { connectHost } from './kit/vscodeApi';

// Entry point of dist/webview.js: register the controls, build the panel, then ask for the state.
registerToolkit();
const host = connectHost();
const app = new App(document.body, host);
// The host is the only sender here (VS Code relays its postMessage into this frame).
window.addEventListener('message', (e: MessageEvent<HostToWebview>) => app.receive(e.data));
host.post({ type: 'ready' });
requestIdleCallback(warmUpMarkdown, { timeout: 500 });
