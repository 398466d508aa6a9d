// Sign-in to a remote MCP server behind OAuth, through the hub as the
// extension wires it, against a real local authorization server and MCP
// server (test/fixtures/mcp/oauthMcpServer.ts). The browser step is replaced
// by following the redirect: the authorize page sends the "browser" to the
// loopback listener, as a person's browser would.
import assert from 'node:assert/strict';
import * as net from 'node:net';
import { after, describe, it } from 'node:test';
import type { McpRemoteDefinition } from '../../../src/mcp/mcpConfig';
import { McpHub } from '../../../src/mcp/mcpHub';
import { memoryOAuthStore, type McpOAuthStore } from '../../../src/mcp/mcpOAuthProvider';
import { McpSignIn } from '../../../src/mcp/mcpSignIn';
import { startOAuthMcpServer, type OAuthMcpServer } from '../../fixtures/mcp/oauthMcpServer';
import { freePort, remoteServer, toolContext } from './mcpTestSupport';

/** A browser that follows the authorization server's redirect to the loopback listener. */
function followingBrowser(opened: URL[]): (url: URL) => Promise<void> {
  return async (url) => {
    opened.push(url);
    const answer = await fetch(url, { redirect: 'manual' });
    const location = answer.headers.get('location');
    assert.ok(location, `the authorize page redirects (got ${answer.status})`);
    const back = await fetch(location);
    assert.match(await back.text(), /Signed in/);
  };
}

async function setUp(
  server: OAuthMcpServer,
  definition: McpRemoteDefinition,
  stores: Map<string, McpOAuthStore>,
  opened: URL[],
  overrides: { redirectPort?: number; openBrowser?: (url: URL) => Promise<void>; log?: (line: string) => void } = {},
) {
  const signIn = new McpSignIn({
    clientName: 'Tandem',
    storeFor: (each) => {
      let store = stores.get(each.url);
      if (store === undefined) stores.set(each.url, (store = memoryOAuthStore()));
      return store;
    },
    openBrowser: overrides.openBrowser ?? followingBrowser(opened),
    redirectPort: overrides.redirectPort ?? (await freePort()),
    timeoutMs: 10_000,
    log: overrides.log,
  });
  const hub = new McpHub({ services: (each) => signIn.services(each), restartDelayMs: 60_000 });
  await hub.update([definition]);
  return { hub, signIn };
}

describe('MCP sign-in (OAuth) through the hub', () => {
  const servers: OAuthMcpServer[] = [];
  const hubs: McpHub[] = [];
  after(async () => {
    await Promise.all(hubs.map((hub) => hub.dispose()));
    await Promise.all(servers.map((server) => server.close()));
  });

  it('shows "sign-in required" without opening a browser, signs in on request (registration, PKCE), keeps the tokens and refreshes them', async () => {
    const server = await startOAuthMcpServer();
    servers.push(server);
    const definition = remoteServer('secure', 'http', server.url) as McpRemoteDefinition;
    const stores = new Map<string, McpOAuthStore>();
    const opened: URL[] = [];
    const { hub, signIn } = await setUp(server, definition, stores, opened);
    hubs.push(hub);

    const [status] = hub.statuses();
    assert.equal(status?.state, 'signInRequired', status?.error);
    assert.match(status?.error ?? '', /[Ss]ign-in required/);
    assert.doesNotMatch(status?.error ?? '', /SSE/, 'a 401 is never reported as an SSE fallback');
    assert.equal(opened.length, 0, 'no browser opens unless the user asks');
    assert.ok(server.log.includes('mcp 401'));

    await signIn.signIn(hub, { name: 'secure', source: 'test' });
    assert.equal(hub.statuses()[0]?.state, 'connected', hub.statuses()[0]?.error);
    assert.equal(opened.length, 1);
    assert.equal(opened[0]?.searchParams.get('code_challenge_method'), 'S256');
    assert.ok(server.log.includes('register'), server.log.join(', '));
    assert.ok(server.log.includes('token code'));
    const whoami = hub.tools().find((tool) => tool.name === 'secure__whoami');
    assert.ok(whoami);
    assert.match((await whoami.run({}, toolContext())).text, /^client client-/);

    // Expired access token: the next call refreshes it, no browser.
    server.expireAccessTokens();
    const again = await whoami.run({}, toolContext());
    assert.equal(again.isError, false, again.text);
    assert.ok(server.log.includes('token refresh'), server.log.join(', '));

    // A new hub with the same store (a window reload): connected at once, no browser.
    await hub.dispose();
    const second = await setUp(server, definition, stores, opened);
    hubs.push(second.hub);
    assert.equal(second.hub.statuses()[0]?.state, 'connected', second.hub.statuses()[0]?.error);
    assert.equal(opened.length, 1);
  });

  it("opens no sign-in page whose address the server's metadata gives in another scheme than https (a vscode:// handler)", async () => {
    const server = await startOAuthMcpServer({ authorizationEndpoint: 'vscode://vscode.git/clone?url=https%3A%2F%2Fevil.example%2Fr.git' });
    servers.push(server);
    const definition = remoteServer('hostile', 'http', server.url) as McpRemoteDefinition;
    const opened: URL[] = [];
    const { hub, signIn } = await setUp(server, definition, new Map(), opened);
    hubs.push(hub);
    const outcome = await signIn.signIn(hub, { name: 'hostile', source: 'test' }).then(
      () => hub.statuses()[0]?.error ?? '',
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    assert.equal(opened.length, 0, 'nothing was opened');
    assert.match(outcome, /not an https address \(vscode:\/\/…\), so Tandem does not open it/);
    assert.notEqual(hub.statuses()[0]?.state, 'connected');
  });

  it('uses oauth.clientId from mcp.json instead of registering, with its scopes', async () => {
    const server = await startOAuthMcpServer({ preregisteredClientId: 'tandem-preregistered', scopesSupported: ['mcp:tools', 'mcp:read'] });
    servers.push(server);
    const definition: McpRemoteDefinition = { ...(remoteServer('pre', 'http', server.url) as McpRemoteDefinition), oauth: { clientId: 'tandem-preregistered', scopes: ['mcp:read'] } };
    const opened: URL[] = [];
    const { hub, signIn } = await setUp(server, definition, new Map(), opened);
    hubs.push(hub);
    assert.equal(hub.statuses()[0]?.state, 'signInRequired');
    await signIn.signIn(hub, { name: 'pre', source: 'test' });
    assert.equal(hub.statuses()[0]?.state, 'connected', hub.statuses()[0]?.error);
    assert.ok(!server.log.includes('register'), server.log.join(', '));
    assert.equal(opened[0]?.searchParams.get('client_id'), 'tandem-preregistered');
    const whoami = hub.tools().find((tool) => tool.name === 'pre__whoami');
    assert.match((await whoami!.run({}, toolContext())).text, /client tandem-preregistered/);
  });

  it('uses oauth.clientMetadataUrl as the client_id when the authorization server supports metadata documents', async () => {
    const server = await startOAuthMcpServer({ clientIdMetadataDocuments: true });
    servers.push(server);
    const document = 'https://tools.example.test/tandem-client.json';
    const definition: McpRemoteDefinition = { ...(remoteServer('cimd', 'http', server.url) as McpRemoteDefinition), oauth: { clientMetadataUrl: document } };
    const opened: URL[] = [];
    const { hub, signIn } = await setUp(server, definition, new Map(), opened);
    hubs.push(hub);
    await signIn.signIn(hub, { name: 'cimd', source: 'test' });
    assert.equal(hub.statuses()[0]?.state, 'connected', hub.statuses()[0]?.error);
    assert.ok(!server.log.includes('register'), server.log.join(', '));
    assert.equal(opened[0]?.searchParams.get('client_id'), document);
    const whoami = hub.tools().find((tool) => tool.name === 'cimd__whoami');
    assert.match((await whoami!.run({}, toolContext())).text, new RegExp(`client ${document.replace(/[.]/g, '\\.')}`));
  });

  it('registers dynamically when the server does not support metadata documents, even with oauth.clientMetadataUrl', async () => {
    const server = await startOAuthMcpServer();
    servers.push(server);
    const definition: McpRemoteDefinition = { ...(remoteServer('fallback', 'http', server.url) as McpRemoteDefinition), oauth: { clientMetadataUrl: 'https://tools.example.test/tandem-client.json' } };
    const opened: URL[] = [];
    const { hub, signIn } = await setUp(server, definition, new Map(), opened);
    hubs.push(hub);
    await signIn.signIn(hub, { name: 'fallback', source: 'test' });
    assert.equal(hub.statuses()[0]?.state, 'connected', hub.statuses()[0]?.error);
    assert.ok(server.log.includes('register'), server.log.join(', '));
    assert.match(opened[0]?.searchParams.get('client_id') ?? '', /^client-/);
  });

  it('comes back to another loopback port when its own is taken, and the registered client still fits', async () => {
    // The fixed port lies in the range handed to outgoing connections: now and then one holds it.
    const server = await startOAuthMcpServer();
    servers.push(server);
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const takenPort = (taken.address() as net.AddressInfo).port;
    try {
      const definition = remoteServer('busy', 'http', server.url) as McpRemoteDefinition;
      const opened: URL[] = [];
      const logged: string[] = [];
      const { hub, signIn } = await setUp(server, definition, new Map(), opened, { redirectPort: takenPort, log: (line) => logged.push(line) });
      hubs.push(hub);
      assert.equal(hub.statuses()[0]?.state, 'signInRequired');
      assert.ok(server.log.includes('register'), 'registered with the preferred port before any sign-in');
      await signIn.signIn(hub, { name: 'busy', source: 'test' });
      assert.equal(hub.statuses()[0]?.state, 'connected', `${hub.statuses()[0]?.error}; ${server.log.join(', ')}`);
      const redirect = new URL(opened[0]?.searchParams.get('redirect_uri') ?? '');
      assert.equal(redirect.hostname, '127.0.0.1');
      assert.notEqual(Number(redirect.port), takenPort);
      assert.ok(logged.some((line) => line.includes(`port ${takenPort} is in use`)), logged.join('\n'));
      assert.ok(server.log.includes('token code'), server.log.join(', '));
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('a sign-in started again (the first tab was closed) frees the first one\'s port and connects', async () => {
    const server = await startOAuthMcpServer();
    servers.push(server);
    const definition = remoteServer('again', 'http', server.url) as McpRemoteDefinition;
    const opened: URL[] = [];
    const follow = followingBrowser([]);
    // The first browser tab is closed without signing in; the second is followed.
    const { hub, signIn } = await setUp(server, definition, new Map(), opened, {
      openBrowser: async (url) => {
        opened.push(url);
        if (opened.length > 1) await follow(url);
      },
    });
    hubs.push(hub);
    const first = signIn.signIn(hub, { name: 'again', source: 'test' });
    await waitUntil(() => opened.length === 1);
    await signIn.signIn(hub, { name: 'again', source: 'test' });
    await first;
    assert.equal(hub.statuses()[0]?.state, 'connected', `${hub.statuses()[0]?.error}; ${server.log.join(', ')}`);
    assert.equal(opened.length, 2);
    assert.equal(opened[1]?.searchParams.get('redirect_uri'), opened[0]?.searchParams.get('redirect_uri'), 'the same port, free again');
  });
});

async function waitUntil(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 10_000) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
