// Converts a web page's HTML to Markdown in a worker thread, so the extension
// host (and every extension and panel it serves) never waits on it: turndown
// takes about a second or two per MB of HTML. One worker per page, ended when
// it answers, on Stop or the run's time limit, and when it runs too long or
// out of its memory. No vscode import.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { CancelledError } from '../common/errors';
import type { PageText } from './htmlToMarkdown';
import type { ConvertReply, ConvertRequest } from './htmlToMarkdownWorker';

/** A page that takes longer than this is not worth the wait (5 MB, the most fetched, takes about 10 s here). */
export const CONVERT_TIMEOUT_MS = 30_000;
/** Heap for one conversion: the DOM of a 5 MB page fits several times over. */
const WORKER_HEAP_MB = 512;

export class PageConversionError extends Error {}

/** How the worker is started: the bundle beside this file (the extension, `npm run agui`), else the TypeScript source through tsx (tests). */
function startWorker(): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: WORKER_HEAP_MB };
  const bundled = path.join(__dirname, 'htmlToMarkdownWorker.js');
  if (existsSync(bundled)) return new Worker(bundled, { resourceLimits });
  const source = path.join(__dirname, 'htmlToMarkdownWorker.ts');
  return new Worker(`require('tsx/cjs'); require(${JSON.stringify(source)});`, { eval: true, resourceLimits });
}

/** `base`: the page's URL, which its relative links are resolved against. */
export function convertPage(html: string, base: string, signal: AbortSignal, timeoutMs = CONVERT_TIMEOUT_MS): Promise<PageText> {
  if (signal.aborted) return Promise.reject(new CancelledError());
  return new Promise<PageText>((resolve, reject) => {
    const worker = startWorker();
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      void worker.terminate();
      outcome();
    };
    const onAbort = () => settle(() => reject(new CancelledError()));
    const timer = setTimeout(() => settle(() => reject(new PageConversionError(`converting it to Markdown took over ${Math.round(timeoutMs / 1000)} s`))), timeoutMs);
    signal.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (reply: ConvertReply) =>
      settle(() => (reply.ok ? resolve({ title: reply.title, markdown: reply.markdown }) : reject(new PageConversionError(`converting it to Markdown failed: ${reply.error}`)))),
    );
    worker.once('error', (error) => settle(() => reject(new PageConversionError(`converting it to Markdown failed: ${error.message}`))));
    worker.once('exit', (code) => settle(() => reject(new PageConversionError(`converting it to Markdown stopped (exit code ${code})`))));
    worker.postMessage({ html, base } satisfies ConvertRequest);
  });
}
