// fetch_url against real local HTTP servers, through the real approval
// policy: a page as Markdown, asking with the exact URL, always-allow per
// site, rejection sending nothing, redirects (same site followed, another site
// reported), paging, binary and oversized bodies, charsets, bad URLs,
// Restricted Mode, and Stop while a server hangs.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createPolicyApprovalGate, type ApprovalPolicy } from '../../../src/agent/policyApprovalGate';
import { CancelledError } from '../../../src/common/errors';
import { createFetchUrlTool, fetchAllowKey } from '../../../src/tools/fetchUrlTool';
import type { ApprovalRequest, ToolResult } from '../../../src/tools/tool';
import { MAX_BODY_BYTES } from '../../../src/tools/webFetch';
import { readAttachments } from '../../../src/host/contextAttachments';
import { notices, runScripted, scriptedServers, settingsFor, toolStatuses } from '../agent/agentTestSupport';
import { urlAttachment } from '../../../src/host/contextItems';
import { convertPage, PageConversionError } from '../../../src/tools/pageConverter';

const serve = scriptedServers();

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

async function listen(handler: Handler): Promise<{ server: Server; origin: string; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer((request, response) => {
    hits.push(request.url ?? '');
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
}

const PAGE = `<!doctype html><html><head><title>Widget API &amp; Guide</title><style>body{color:red}</style><script>var secret = 1;</script></head>
<body><nav><a href="/">Home</a> | <a href="/about">About</a></nav>
<main><h1>Widgets</h1><p>Call <code>widget.spin()</code> to <a href="/spin">spin</a> it.</p>
<ul><li>fast</li><li>safe</li></ul><pre><code>widget.spin(3);</code></pre></main>
<footer>Copyright nobody</footer></body></html>`;

let site: Awaited<ReturnType<typeof listen>>;
let other: Awaited<ReturnType<typeof listen>>;
let hang: Awaited<ReturnType<typeof listen>>;

before(async () => {
  other = await listen((_request, response) => response.end('the other site'));
  hang = await listen(() => undefined); // answers nothing
  site = await listen((request, response) => {
    const url = request.url ?? '/';
    if (url === '/page') return void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    if (url === '/moved') return void response.writeHead(301, { location: '/page' }).end();
    if (url === '/away') return void response.writeHead(302, { location: `${other.origin}/landing` }).end();
    if (url === '/long') return void response.writeHead(200, { 'content-type': 'text/plain' }).end('0123456789'.repeat(500));
    if (url === '/image') return void response.writeHead(200, { 'content-type': 'image/png', 'content-length': '2048' }).end(Buffer.alloc(2048, 7));
    if (url === '/huge') return void response.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(MAX_BODY_BYTES + 1000));
    if (url === '/big.html') return void response.writeHead(200, { 'content-type': 'text/html' }).end(`<h1>Start</h1>${'<p>filler text</p>'.repeat(70_000)}<h2>END-MARKER</h2>`);
    if (url === '/latin1') return void response.writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' }).end(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    if (url === '/missing') return void response.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
    if (url === '/cut') {
      response.writeHead(200, { 'content-type': 'text/plain', 'content-length': '100000' });
      response.write('x'.repeat(1000));
      return void setTimeout(() => request.socket.destroy(), 20);
    }
    if (url === '/data.json') return void response.writeHead(200, { 'content-type': 'application/json' }).end('{"version":"1.2.3"}');
    response.writeHead(500).end();
  });
});

after(() => {
  for (const each of [site, other, hang]) each.server.closeAllConnections();
  for (const each of [site, other, hang]) each.server.close();
});

async function fetchUrl(args: Record<string, unknown>, options: { policy?: ApprovalPolicy; answer?: boolean; trusted?: boolean; signal?: AbortSignal } = {}) {
  const asked: ApprovalRequest[] = [];
  const gate = createPolicyApprovalGate(options.policy ?? { autoApprove: 'readOnly', alwaysAllow: [] }, async (request) => {
    asked.push(request);
    return options.answer ?? true;
  });
  const tool = createFetchUrlTool({ isTrusted: () => options.trusted ?? true });
  const result: ToolResult = await tool.run(args, { runId: 'r', callId: 'c', signal: options.signal ?? new AbortController().signal, approval: gate });
  return { result, asked };
}

describe('fetch_url', () => {
  it('asks with the exact URL, then gives a page as Markdown without scripts, styles or navigation', async () => {
    const { result, asked } = await fetchUrl({ url: `${site.origin}/page#section` });
    assert.equal(asked.length, 1);
    assert.equal(asked[0]?.summary, `Fetch ${site.origin}/page (an address on this machine or its network)`);
    assert.deepEqual(asked[0]?.alwaysAllow, { key: `fetch_url:${site.origin}`, label: `Always allow fetching from ${site.origin}` });
    assert.equal(result.isError, false);
    assert.match(result.text, new RegExp(`^GET ${site.origin}/page → 200 OK, text/html as Markdown \\(\\d+ bytes; \\d+ characters\\)\\nTitle: Widget API & Guide\\n\\n# Widgets`));
    assert.ok(result.text.includes(`Call \`widget.spin()\` to [spin](${site.origin}/spin) it.`), 'a relative link comes absolute');
    assert.match(result.text, /-\s+fast\n-\s+safe/);
    assert.match(result.text, /```\nwidget\.spin\(3\);\n```/);
    for (const gone of ['secret', 'color:red', 'About', 'Copyright']) assert.doesNotMatch(result.text, new RegExp(gone));
    assert.match(result.summary?.kind === 'text' ? result.summary.preview : '', /^Widget API & Guide\n\n# Widgets/, 'the heading is the title');
  });

  it('sends nothing when the user rejects it, and always asks, even under autoApprove all', async () => {
    const before = site.hits.length;
    const { result } = await fetchUrl({ url: `${site.origin}/page` }, { answer: false });
    assert.equal(result.rejected, true);
    assert.match(result.text, /rejected fetching .*nothing was sent/);
    assert.equal(site.hits.length, before, 'no request reached the server');
    const all = await fetchUrl({ url: `${site.origin}/data.json` }, { policy: { autoApprove: 'all', alwaysAllow: [] } });
    assert.equal(all.asked.length, 1, 'autoApprove all does not cover sending a request out');
  });

  it('runs unasked for a site the user allowed (or the tool), and asks for any other site', async () => {
    const allowed = await fetchUrl({ url: `${site.origin}/data.json` }, { policy: { autoApprove: 'readOnly', alwaysAllow: [fetchAllowKey(site.origin)] } });
    assert.equal(allowed.asked.length, 0);
    assert.match(allowed.result.text, /\{"version":"1\.2\.3"\}/);
    const elsewhere = await fetchUrl({ url: `${other.origin}/x` }, { policy: { autoApprove: 'readOnly', alwaysAllow: [fetchAllowKey(site.origin)] } });
    assert.equal(elsewhere.asked.length, 1, 'the entry is for one origin (scheme, host and port)');
    const tool = await fetchUrl({ url: `${other.origin}/x` }, { policy: { autoApprove: 'readOnly', alwaysAllow: ['fetch_url'] } });
    assert.equal(tool.asked.length, 0);
  });

  it('follows a redirect within the site, and reports one to another site without fetching it', async () => {
    const moved = await fetchUrl({ url: `${site.origin}/moved` });
    assert.match(moved.result.text, new RegExp(`^GET ${site.origin}/page → 200`));
    const otherHits = other.hits.length;
    const away = await fetchUrl({ url: `${site.origin}/away` });
    assert.match(away.result.text, new RegExp(`redirects to ${other.origin}/landing, another site .* not fetched`));
    assert.equal(other.hits.length, otherHits, 'the other site got no request');
  });

  it('pages through a long text with startChar, and says where it was cut', async () => {
    const first = await fetchUrl({ url: `${site.origin}/long`, maxChars: 1000 });
    assert.match(first.result.text, /characters 0-1000 of 5000; call again with startChar 1000 to read on/);
    assert.equal(first.result.text.split('\n\n')[1], '0123456789'.repeat(100));
    const last = await fetchUrl({ url: `${site.origin}/long`, startChar: 4500, maxChars: 1000 });
    assert.match(last.result.text, /characters 4500-5000 of 5000\)/);
    const past = await fetchUrl({ url: `${site.origin}/long`, startChar: 9000 });
    assert.match(past.result.text, /\(nothing past character 5000\)/);
  });

  it('does not show binary content, cuts a body past the cap, decodes the charset the server names, and marks an HTTP error', async () => {
    const image = await fetchUrl({ url: `${site.origin}/image` });
    assert.match(image.result.text, /image\/png \(2 KB\): binary content, not shown\./);
    const huge = await fetchUrl({ url: `${site.origin}/huge`, maxChars: 1000 });
    assert.match(huge.result.text, /\(the first 5 MB of a longer body; characters 0-1000 of 5242880;/);
    const big = await fetchUrl({ url: `${site.origin}/big.html`, maxChars: 1000 });
    const total = Number(/\([\d.]+ MB; characters 0-1000 of (\d+);/.exec(big.result.text)?.[1]);
    assert.ok(total > 500_000, big.result.text.slice(0, 300));
    assert.match(big.result.text, /# Start/);
    // The whole page is converted (in a worker thread, so the host is not held for the seconds it takes).
    const end = await fetchUrl({ url: `${site.origin}/big.html`, startChar: total - 100 });
    assert.match(end.result.text, /## END-MARKER$/);
    const latin1 = await fetchUrl({ url: `${site.origin}/latin1` });
    assert.match(latin1.result.text, /\n\ncafé$/);
    const missing = await fetchUrl({ url: `${site.origin}/missing` });
    assert.equal(missing.result.isError, true);
    assert.match(missing.result.text, /→ 404 Not Found[\s\S]*no such page/);
    assert.match(missing.result.summary?.kind === 'text' ? missing.result.summary.preview : '', /^404 Not Found\n\nno such page/, 'the heading says what went wrong');
  });

  it('says why a fetch failed: a connection closed mid-body, nothing listening', async () => {
    const cut = await fetchUrl({ url: `${site.origin}/cut` });
    assert.equal(cut.result.isError, true);
    assert.match(cut.result.text, new RegExp(`could not fetch ${site.origin}/cut: the connection closed before the whole response came`));
    const closed = await listen(() => undefined);
    const refusedOrigin = closed.origin;
    await new Promise<void>((resolve) => closed.server.close(() => resolve()));
    const refused = await fetchUrl({ url: `${refusedOrigin}/` });
    assert.match(refused.result.text, /the connection was refused: nothing listens there \(ECONNREFUSED\)/);
  });

  it('refuses what is no http(s) URL, a URL with credentials, and Restricted Mode, without asking', async () => {
    for (const [url, why] of [
      ['not a url', /is not a URL/],
      ['file:///etc/passwd', /only http:\/\/ and https:\/\//],
      [`http://user:pw@127.0.0.1:1/`, /user name or password/],
    ] as const) {
      const { result, asked } = await fetchUrl({ url });
      assert.equal(result.isError, true, url);
      assert.match(result.text, why);
      assert.equal(asked.length, 0);
    }
    const restricted = await fetchUrl({ url: `${site.origin}/page` }, { trusted: false });
    assert.match(restricted.result.text, /never runs in Restricted Mode/);
    assert.equal(restricted.asked.length, 0);
  });

  it('@https://… attaches the page, fetched when the message is sent, without a card; a bad URL is an error chip', async () => {
    const item = urlAttachment(`${site.origin}/page`);
    assert.equal(item.error, undefined);
    assert.equal(item.path, `${site.origin}/page`);
    const hits = site.hits.length;
    const attached = await readAttachments([item, urlAttachment('ftp://example.com/x')], new AbortController().signal);
    assert.equal(site.hits.length, hits + 1, 'read once, at send');
    assert.ok(attached!.text.startsWith(`Attached web page ${site.origin}/page:\n\`\`\``) && attached!.text.includes(`markdown\nGET ${site.origin}/page → 200 OK`), attached!.text);
    assert.match(attached!.text, /# Widgets/);
    assert.match(attached!.text, /Attached web page ftp:\/\/example\.com\/x was not attached: only http:\/\/ and https:\/\/ URLs can be fetched/);
    assert.deepEqual(attached!.labels, [`${site.origin}/page`, 'ftp://example.com/x (not sent: only http:// and https:// URLs can be fetched, not ftp:)']);
  });

  it('in a run: the same fetch again comes from the run\'s cache and counts for the loop guard, as a read does', async () => {
    const model = await serve([
      { model: 'fc-model', toolCalls: [{ name: 'fetch_url', arguments: { url: `${site.origin}/data.json` } }] },
      { model: 'fc-model', toolCalls: [{ name: 'fetch_url', arguments: { url: `${site.origin}/data.json` } }] },
      { model: 'fc-model', content: 'Version 1.2.3.' },
      { model: 'answer-model', content: '1.2.3' },
    ]);
    const hits = site.hits.length;
    const asked: unknown[] = [];
    const run = await runScripted(settingsFor(model), { tools: [createFetchUrlTool({ isTrusted: () => true })], approve: (request) => (asked.push(request), true) });
    assert.equal(run.result?.answer, '1.2.3');
    assert.equal(site.hits.length, hits + 1, 'fetched once');
    assert.equal(asked.length, 1, 'asked once');
    assert.deepEqual(toolStatuses(run.events).map((status) => status.status), ['done', 'cached']);
    assert.ok(notices(run.events).some((notice) => notice.code === 'loopWarning'), 'the loop guard saw the repeat');
  });

  it('ends with the run when Stop comes while the server has not answered', async () => {
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 200);
    const started = Date.now();
    await assert.rejects(fetchUrl({ url: `${hang.origin}/slow` }, { signal: stop.signal }), CancelledError);
    assert.ok(Date.now() - started < 5000);
    assert.equal(hang.hits.length, 1);
  });
});

describe('converting a page off the host thread', () => {
  const page = `<h1>Start</h1>${'<p>filler <a href="/x">text</a></p>'.repeat(60_000)}<h2>END</h2>`;

  it('converts in a worker: links made absolute, the title read', async () => {
    const converted = await convertPage('<html><head><title>A &amp; B</title></head><body><p>See <a href="/docs">the docs</a>.</p></body></html>', 'https://example.test/page', new AbortController().signal);
    assert.deepEqual(converted, { title: 'A & B', markdown: 'See [the docs](https://example.test/docs).' });
  });

  it('Stop ends a conversion under way, and so does its time limit (neither could, were it on the host thread)', async () => {
    const stop = new AbortController();
    const started = Date.now();
    setTimeout(() => stop.abort(), 50);
    await assert.rejects(convertPage(page, 'https://example.test/', stop.signal), CancelledError);
    await assert.rejects(convertPage(page, 'https://example.test/', new AbortController().signal, 50), (error: unknown) => error instanceof PageConversionError && /took over 0 s/.test(error.message));
    // The whole page takes seconds to convert; both ended well before it would have.
    const whole = Date.now();
    await convertPage(page, 'https://example.test/', new AbortController().signal);
    const wholeMs = Date.now() - whole;
    assert.ok(started + wholeMs > whole, `a full conversion (${wholeMs} ms) outlasts the two that were cut (${whole - started} ms)`);
  });
});
