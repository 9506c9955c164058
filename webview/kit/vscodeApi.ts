import type { WebviewToHost } from '../../src/shared/protocol';

/** The webview's only channel to the extension host, typed with the protocol's messages. */

interface VsCodeWebviewApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeWebviewApi;

export interface Host {
  post(message: WebviewToHost): void;
  /** What setState saved before the webview was last hidden, or undefined. */
  loadState(): unknown;
  saveState(state: unknown): void;
}

export function connectHost(): Host {
  // acquireVsCodeApi may be called once per page load.
  const api = acquireVsCodeApi();
  return {
    post: (message) => api.postMessage(message),
    loadState: () => api.getState(),
    saveState: (state) => api.setState(state),
  };
}
