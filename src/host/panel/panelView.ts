import * as vscode from 'vscode';
import type { HostToWebview } from '../../shared/protocol';
import { createNonce } from './nonce';
import { renderPanelHtml } from './panelHtml';

export interface PanelViewHandlers {
  /** The view was (re)created: messages may be posted through `post`. */
  onAttach(post: (message: HostToWebview) => void): void;
  onDetach(): void;
  /** A raw message from the webview; the receiver validates it. */
  onMessage(message: unknown): void;
}

/** What the rest of the host may know of the view: whether it is on screen, and its badge. */
export interface PanelViewState {
  readonly visible: boolean;
  /** 0 takes the badge away. Kept for a view not resolved yet, and applied when it is. */
  setBadge(count: number, tooltip: string): void;
  onDidChangeVisibility(listener: () => void): vscode.Disposable;
}

/**
 * The sidebar webview: strict CSP with a fresh nonce per render, scripts and styles only from
 * dist/ through asWebviewUri, nothing remote. Kept light: it is created at activation.
 */
export class PanelViewProvider implements vscode.WebviewViewProvider, PanelViewState {
  static readonly viewId = 'subagents.panel';
  private view: vscode.WebviewView | undefined;
  private badge: vscode.ViewBadge | undefined;
  private readonly visibility = new vscode.EventEmitter<void>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly handlers: PanelViewHandlers,
  ) {}

  get visible(): boolean {
    return this.view?.visible ?? false;
  }

  setBadge(count: number, tooltip: string): void {
    this.badge = count > 0 ? { value: count, tooltip } : undefined;
    if (this.view) this.view.badge = this.badge;
  }

  onDidChangeVisibility(listener: () => void): vscode.Disposable {
    return this.visibility.event(listener);
  }

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
    this.view = view;
    view.badge = this.badge;
    const subscriptions = [
      webview.onDidReceiveMessage((m: unknown) => this.handlers.onMessage(m)),
      view.onDidChangeVisibility(() => this.visibility.fire()),
    ];
    this.handlers.onAttach((message) => void webview.postMessage(message));
    this.visibility.fire();
    view.onDidDispose(() => {
      for (const s of subscriptions) s.dispose();
      if (this.view === view) this.view = undefined;
      this.handlers.onDetach();
      this.visibility.fire();
    });
  }

  dispose(): void {
    this.visibility.dispose();
  }
}
