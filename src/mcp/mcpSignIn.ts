// Sign-in for remote MCP servers. Every remote server gets an OAuth provider
// (discovery, PKCE, a pre-registered `oauth.clientId`, a Client ID Metadata
// Document at `oauth.clientMetadataUrl`, or dynamic registration,
// scopes, refresh: the SDK's auth() through McpOAuthProvider), with its
// credentials in a store per server (SecretStorage in VS Code). A server that
// answers 401 with no usable token shows as "sign-in required": the browser
// opens only when the user asks (signIn), never on its own at start.
import { McpOAuthProvider, type McpOAuthStore } from './mcpOAuthProvider';
import type { McpRemoteDefinition, McpServerDefinition } from './mcpConfig';
import { connectionKey } from './mcpConnection';
import type { McpHub, McpServerKey } from './mcpHub';
import type { SessionServices } from './mcpSession';
import { listenForRedirect, LOOPBACK_REDIRECT_PORT, loopbackRedirectUrl } from './loopbackRedirect';

export interface McpSignInOptions {
  readonly clientName: string;
  /** Where one server's credentials live; called once per connection attempt. */
  readonly storeFor: (definition: McpRemoteDefinition) => McpOAuthStore;
  /** Opens the authorization page in the user's browser. */
  readonly openBrowser: (url: URL) => Promise<void>;
  readonly redirectPort?: number | undefined;
  /** How long the browser step may take; default 5 minutes. */
  readonly timeoutMs?: number | undefined;
  readonly log?: ((line: string) => void) | undefined;
}

export class McpSignIn {
  /** Servers whose sign-in the user started: only these may open the browser. */
  private readonly interactive = new Set<string>();

  constructor(private readonly options: McpSignInOptions) {}

  /** The hub's `services` for one server: an OAuth provider for a remote one. */
  services(definition: McpServerDefinition): Omit<SessionServices, 'serverName'> {
    if (definition.type !== 'http' && definition.type !== 'sse') return {};
    const key = connectionKey(definition.name, definition.source);
    const port = this.options.redirectPort ?? LOOPBACK_REDIRECT_PORT;
    const clientId = definition.oauth?.clientId;
    const authProvider = new McpOAuthProvider({
      clientName: this.options.clientName,
      redirectUrl: loopbackRedirectUrl(port),
      preregistered: clientId === undefined ? undefined : { clientId },
      clientMetadataUrl: definition.oauth?.clientMetadataUrl,
      scopes: definition.oauth?.scopes,
      store: this.options.storeFor(definition),
      authorize: (url) => (this.interactive.has(key) ? this.browserStep(url, port) : undefined),
    });
    return { authProvider };
  }

  /** Signs in to one server: restarts it with the browser step allowed; resolves when it is up (or failed). */
  async signIn(hub: McpHub, server: Required<McpServerKey>): Promise<void> {
    const key = connectionKey(server.name, server.source);
    this.interactive.add(key);
    try {
      this.options.log?.(`sign-in to MCP server "${server.name}" started`);
      await hub.restart(server);
    } finally {
      this.interactive.delete(key);
    }
  }

  private async browserStep(url: URL, port: number): Promise<URL> {
    const listener = await listenForRedirect(port, this.options.timeoutMs ?? 5 * 60_000);
    try {
      await this.options.openBrowser(url);
    } catch (error) {
      listener.close();
      throw error;
    }
    return listener.redirect;
  }
}
