// fetch_url: GETs a web page or file and gives the model its text (a page as
// Markdown). A request leaves the machine with whatever the model put in the
// URL, which may be something it read: so it always asks (the card shows the
// exact URL), unless the user allowed the site (`fetch_url:<origin>` in
// `tandem.tools.alwaysAllow`) or the tool; never in Restricted Mode. A
// redirect to another site is reported, not followed. No vscode import.
import { z } from 'zod';
import { CancelledError } from '../common/errors';
import { byteSize } from '../common/byteSize';
import { isLocalNetworkHost } from '../common/httpUrl';
import { convertPage, PageConversionError } from './pageConverter';
import type { Tool, ToolResult } from './tool';
import { fetchPage, MAX_BODY_BYTES, type FetchedPage } from './webFetch';
import { defineWorkspaceTool, summaryPreview, WorkspaceToolFault } from './workspaceToolSupport';

export const FETCH_URL_TOOL = 'fetch_url';
/** The most characters of a page one call returns; `startChar` pages through the rest. */
export const FETCH_DEFAULT_CHARS = 20_000;

export interface FetchUrlDeps {
  /** False in Restricted Mode: the tool refuses without asking. */
  readonly isTrusted: () => boolean;
  /** Replaces the network (never in the product). */
  readonly fetch?: typeof fetch | undefined;
}

/** The `tandem.tools.alwaysAllow` entry that lets every URL of `origin` be fetched unasked. */
export function fetchAllowKey(origin: string): string {
  return `${FETCH_URL_TOOL}:${origin}`;
}

export function createFetchUrlTool(deps: FetchUrlDeps): Tool {
  return defineWorkspaceTool({
    name: FETCH_URL_TOOL,
    description:
      'Fetch a web page or file over HTTP(S) and read its text: an HTML page comes as Markdown, text and JSON as they are. ' +
      'The user approves each site unless they allowed it. Use it for documentation, issues or specifications the user points to, not for workspace files. ' +
      'A long page is cut: call again with startChar to read on.',
    // It changes nothing here: its calls run side by side, a repeated one comes from the run's cache and
    // counts for the loop guard. It asks for itself (approvesItself), always, so read-only is no pass.
    readOnly: true,
    approvesItself: true,
    network: true,
    input: z.object({
      url: z.string().trim().min(1).max(4000).describe('The full http:// or https:// URL.'),
      startChar: z.number().int().min(0).default(0).describe('Where to start in the page text, for reading on after a cut.'),
      maxChars: z.number().int().min(1000).max(100_000).default(FETCH_DEFAULT_CHARS).describe('The most characters to return.'),
    }),
    run: async (args, context) => {
      if (!deps.isTrusted()) throw new WorkspaceToolFault('fetch_url never runs in Restricted Mode (this workspace is not trusted).');
      const url = parseUrl(args.url);
      const origin = url.origin;
      const local = isLocalNetworkHost(url.hostname);
      const approved = await context.approval.request(
        {
          kind: 'toolCall',
          toolName: FETCH_URL_TOOL,
          toolCallId: context.callId,
          arguments: { url: url.href },
          readOnly: false,
          alwaysAsks: true,
          summary: `Fetch ${url.href}${local ? ' (an address on this machine or its network)' : ''}`,
          alwaysAllow: { key: fetchAllowKey(origin), label: `Always allow fetching from ${origin}` },
          allowedBy: (entries) => entries.includes(FETCH_URL_TOOL) || entries.includes(fetchAllowKey(origin)),
        },
        context.signal,
      );
      if (context.signal.aborted) throw new CancelledError();
      if (!approved) return { text: `The user rejected fetching ${url.href}; nothing was sent.`, rejected: true };
      return readWebPage(url, context.signal, args.startChar, args.maxChars, deps.fetch);
    },
  });
}

/** GETs `url` and describes what came back as the model reads it (the page as Markdown, cut to `maxChars` from `startChar`). */
export async function readWebPage(url: URL, signal: AbortSignal, startChar = 0, maxChars = FETCH_DEFAULT_CHARS, fetchImpl?: typeof fetch): Promise<ToolResult> {
  return describePage(await fetchPage(url, signal, fetchImpl), startChar, maxChars, signal);
}

/** The URL a model or a person gave, checked: http(s), no credentials, no fragment. Throws a fault that says why not. */
export function parseUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new WorkspaceToolFault(`"${text}" is not a URL. Give a full http:// or https:// address.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new WorkspaceToolFault(`only http:// and https:// URLs can be fetched, not ${url.protocol}`);
  // Credentials in a URL go to the server in the clear of the request: not something to send on a model's word.
  if (url.username || url.password) throw new WorkspaceToolFault('a URL with a user name or password in it is not fetched.');
  url.hash = '';
  return url;
}

async function describePage(page: FetchedPage, startChar: number, maxChars: number, signal: AbortSignal): Promise<ToolResult> {
  const status = `${page.status}${page.statusText ? ` ${page.statusText}` : ''}`;
  if (page.redirectedTo !== undefined) {
    const text = `GET ${page.url} → ${status}: it redirects to ${page.redirectedTo}, another site (or too many redirects), which was not fetched. Call fetch_url with that URL to read it (the user is asked again).`;
    return { text, summary: summaryPreview(`Redirects to ${page.redirectedTo} (not followed)`) };
  }
  const size = page.cut ? `the first ${byteSize(MAX_BODY_BYTES)} of a longer body` : byteSize(page.bytes);
  if (page.text === undefined) {
    const text = `GET ${page.url} → ${status}, ${page.mediaType}${page.bytes > 0 ? ` (${size})` : ''}: binary content, not shown.`;
    return { text, isError: page.status >= 400, summary: summaryPreview(text) };
  }
  const html = page.mediaType === 'text/html' || page.mediaType === 'application/xhtml+xml';
  let converted: { title: string | undefined; markdown: string } = { title: undefined, markdown: page.text };
  if (html) {
    try {
      converted = await convertPage(page.text, page.url, signal);
    } catch (error) {
      if (!(error instanceof PageConversionError)) throw error;
      const text = `GET ${page.url} → ${status}, ${page.mediaType} (${size}): the page came, but ${error.message}.`;
      return { text, isError: true, summary: summaryPreview(`The page came, but ${error.message}.`) };
    }
  }
  const { title, markdown } = converted;
  const part = markdown.slice(startChar, startChar + maxChars);
  const end = startChar + part.length;
  const range =
    startChar === 0 && end >= markdown.length
      ? `${markdown.length} characters`
      : `characters ${startChar}-${end} of ${markdown.length}${end < markdown.length ? `; call again with startChar ${end} to read on` : ''}`;
  const head = `GET ${page.url} → ${status}, ${page.mediaType || 'no type'}${html ? ' as Markdown' : ''} (${size}; ${range})${title ? `\nTitle: ${title}` : ''}`;
  const body = part || (startChar > 0 ? `(nothing past character ${markdown.length})` : '(empty)');
  // The collapsed step's heading (after the URL): the page's title, or what went wrong.
  const headline = page.status >= 400 ? status : (title ?? `${page.mediaType || 'no type'}, ${markdown.length} characters`);
  return { text: `${head}\n\n${body}`, isError: page.status >= 400, summary: summaryPreview(`${headline}\n\n${part}`) };
}
