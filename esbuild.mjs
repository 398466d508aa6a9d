// Builds two bundles: the extension (Node, CommonJS, `vscode` external) and
// the webview (browser, IIFE). `--watch` rebuilds on change; `--production`
// minifies and drops source maps.
import * as esbuild from 'esbuild';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

/** @type {import('esbuild').BuildOptions} */
const shared = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  logLevel: 'info',
  legalComments: 'none',
};

const builds = [
  {
    ...shared,
    // Two bundles: the tiny activation entry and the host services it loads
    // after activation (src/extension.ts requires dist/host.js by path).
    entryPoints: { extension: 'src/extension.ts', host: 'src/host/hostMain.ts' },
    outdir: 'dist',
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['vscode'],
  },
  {
    ...shared,
    // The tokenizer's encodings, each its own bundle (~2 MB of tables), loaded
    // by src/models/tokenCounter.ts only when a request nears the window.
    // fetch_url's worker thread (HTML to Markdown, with turndown and the DOM it parses with): started per page, never loaded by the host itself.
    entryPoints: {
      'tokenizer-o200k_base': 'gpt-tokenizer/encoding/o200k_base',
      'tokenizer-cl100k_base': 'gpt-tokenizer/encoding/cl100k_base',
      htmlToMarkdownWorker: 'src/tools/htmlToMarkdownWorker.ts',
    },
    outdir: 'dist',
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: false,
  },
  {
    ...shared,
    // The headless AG-UI server (`npm run agui`): plain Node, no vscode.
    entryPoints: { agui: 'src/headless/aguiCli.ts' },
    outdir: 'dist',
    platform: 'node',
    target: 'node20',
    format: 'cjs',
  },
  {
    ...shared,
    entryPoints: { webview: 'webview/main.ts' },
    outdir: 'dist',
    platform: 'browser',
    target: 'es2022',
    format: 'iife',
  },
];

if (watch) {
  const contexts = await Promise.all(builds.map((options) => esbuild.context(options)));
  await Promise.all(contexts.map((context) => context.watch()));
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
}
