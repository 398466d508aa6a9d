// The worker thread that converts one web page to Markdown (pageConverter.ts
// starts it, posts the page, reads the result and ends it). Bundled on its own
// as dist/htmlToMarkdownWorker.js, with turndown and the DOM it parses with.
import { parentPort } from 'node:worker_threads';
import { htmlToMarkdown } from './htmlToMarkdown';

export interface ConvertRequest {
  readonly html: string;
  readonly base: string;
}

export type ConvertReply = { readonly ok: true; readonly title: string | undefined; readonly markdown: string } | { readonly ok: false; readonly error: string };

parentPort?.once('message', (request: ConvertRequest) => {
  let reply: ConvertReply;
  try {
    reply = { ok: true, ...htmlToMarkdown(request.html, request.base) };
  } catch (error) {
    reply = { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(reply);
});
