import * as vscode from 'vscode';
import type { HostToWebview } from '../shared/protocol';
import { createNonce } from './nonce';
import { renderPanelHtml } from './panelHtml';

export interface PanelViewHandlers {
  /** The view was (re)created: messages may be posted through `post`. */
  onAttach(post: (message: HostToWebview) => void): void;
  onDetach(): void;
  /** A raw message from the webview; the receiver validates it. */
  onMessage(message: unknown): void;
}

/**
 * The sidebar webview: strict CSP with a fresh nonce per render, scripts and styles only from
 * dist/ through asWebviewUri, nothing remote. Kept light: it is created at activation.
 */
export class PanelViewProvider implements vscode.WebviewViewProvider {
  static readonly viewId = 'subagents.panel';

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly handlers: PanelViewHandlers,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist');
    const webview = view.webview;
    webview.options = { enableScripts: true, localResourceRoots: [dist, vscode.Uri.joinPath(this.extensionUri, 'media')] };
    webview.html = renderPanelHtml({
      cspSource: webview.cspSource,
      nonce: createNonce(),
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.css')).toString(),
      codiconUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'codicon.css')).toString(),
    });
    const subscription = webview.onDidReceiveMessage((m: unknown) => this.handlers.onMessage(m));
    this.handlers.onAttach((message) => void webview.postMessage(message));
    view.onDidDispose(() => {
      subscription.dispose();
      this.handlers.onDetach();
    });
  }
}
