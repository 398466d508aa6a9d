// The panel's HTML: a strict Content-Security-Policy where only our own
// script (with a fresh nonce) and our stylesheet may load.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

function nonce(): string {
  return randomBytes(18).toString('base64');
}

/** The panel's HTML: only our own script (with a fresh nonce) and stylesheet may load. */
export function panelHtml(webview: vscode.Webview, media: vscode.Uri, dist: vscode.Uri): string {
  const scriptNonce = nonce();
  const script = webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.js'));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(media, 'panel.css'));
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${scriptNonce}'`,
    // The toolkit (FAST) probes :focus-visible with a <style> carrying the nonce of the csp-nonce meta tag.
    `style-src ${webview.cspSource} 'nonce-${scriptNonce}'`,
    `font-src ${webview.cspSource}`,
    `img-src ${webview.cspSource} data:`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta property="csp-nonce" content="${scriptNonce}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style.toString()}">
<title>Tandem</title>
</head>
<body>
<script nonce="${scriptNonce}" src="${script.toString()}"></script>
</body>
</html>`;
}
