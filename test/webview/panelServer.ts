import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createNonce } from '../../src/host/panel/nonce';
import { renderPanelHtml } from '../../src/host/panel/panelHtml';

/**
 * Serves the real panel over 127.0.0.1: the HTML of renderPanelHtml (real nonce and CSP), the given
 * webview bundle and stylesheet (built as esbuild.mjs builds them) and the codicons. Shared by the webview tests and the render bench,
 * so both measure and check exactly what the extension serves.
 */
export interface PanelServer {
  origin: string;
  close(): Promise<void>;
}

/** `root` is the repository's root (the codicons are read from its node_modules). */
export async function servePanel(root: string, bundle: { js: string; css: string }): Promise<PanelServer> {
  const codicons = join(root, 'node_modules', '@vscode', 'codicons', 'dist');
  const files: Record<string, { body: Buffer | string; type: string }> = {
    '/webview.js': { body: bundle.js, type: 'text/javascript' },
    '/webview.css': { body: bundle.css, type: 'text/css' },
    '/codicon.css': { body: readFileSync(join(codicons, 'codicon.css')), type: 'text/css' },
    '/codicon.ttf': { body: readFileSync(join(codicons, 'codicon.ttf')), type: 'font/ttf' },
  };
  let origin = '';
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === '/') {
      const html = renderPanelHtml({
        cspSource: origin,
        nonce: createNonce(),
        scriptUri: `${origin}/webview.js`,
        styleUri: `${origin}/webview.css`,
        codiconUri: `${origin}/codicon.css`,
      });
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
      return;
    }
    const file = files[path];
    if (file) res.writeHead(200, { 'content-type': file.type }).end(file.body);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
