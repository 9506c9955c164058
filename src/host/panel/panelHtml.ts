/**
 * The panel webview's HTML. Pure (no vscode import) so tests serve exactly what the extension
 * serves. The CSP allows nothing by default: fonts and images only from the webview's own
 * resource origin, the one script tag by nonce, styles from that origin plus by nonce. No inline
 * script, no inline style attribute, no 'unsafe-inline'.
 *
 * Why styles take the nonce too: the toolkit's FAST foundation probes `:focus-visible` support at
 * load by inserting a <style> element, which a CSP without it reports as a violation (and the
 * probe then fails, so focus rings show on mouse clicks). FAST's documented remedy is the nonce
 * in `<meta property="csp-nonce">`, which it puts on that element. Its component styles use
 * constructable stylesheets, which the CSP does not restrict.
 */

export interface PanelHtmlInput {
  /** `webview.cspSource`: the origin the webview's own resources are served from. */
  cspSource: string;
  nonce: string;
  scriptUri: string;
  styleUri: string;
  codiconUri: string;
}

export function panelCsp(cspSource: string, nonce: string): string {
  return (
    [
      `default-src 'none'`,
      `img-src ${cspSource} data:`,
      `style-src ${cspSource} 'nonce-${nonce}'`,
      `font-src ${cspSource}`,
      `script-src 'nonce-${nonce}'`,
    ].join('; ') + ';'
  );
}

export function renderPanelHtml(input: PanelHtmlInput): string {
  const a = escapeAttr;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${a(panelCsp(input.cspSource, input.nonce))}">
<meta property="csp-nonce" content="${a(input.nonce)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${a(input.codiconUri)}">
<link rel="stylesheet" href="${a(input.styleUri)}">
<title>Subagents</title>
</head>
<body>
<script nonce="${a(input.nonce)}" src="${a(input.scriptUri)}"></script>
</body>
</html>
`;
}

function escapeAttr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
