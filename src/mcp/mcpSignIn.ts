// Sign-in for remote MCP servers. Every remote server gets an OAuth provider
// (discovery, PKCE, a pre-registered `oauth.clientId`, a Client ID Metadata
// Document at `oauth.clientMetadataUrl`, or dynamic registration,
// scopes, refresh: the SDK's auth() through McpOAuthProvider), with its
// credentials in a store per server (SecretStorage in VS Code). A server that
// answers 401 with no usable token shows as "sign-in required": the browser
// opens only when the user asks (signIn), never on its own at start.
import { isLoopbackUrl } from '../common/httpUrl';
import { McpOAuthProvider, type McpOAuthStore } from './mcpOAuthProvider';
import type { McpRemoteDefinition, McpServerDefinition } from './mcpConfig';
import { connectionKey } from './mcpConnection';
import type { McpHub, McpServerKey } from './mcpHub';
import type { SessionServices } from './mcpSession';
import { listenForRedirect, listenForRedirectOnFreePort, LOOPBACK_REDIRECT_PORT, loopbackRedirectUrl, type LoopbackRedirect } from './loopbackRedirect';

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

/** A sign-in the user started: the port its browser step comes back to, reserved before the server is asked. */
interface SignInUnderWay {
  readonly port: number;
  /** The listener opened at the start, for the first browser step; a later one listens again on the same port. */
  unused: LoopbackRedirect | undefined;
  readonly listeners: LoopbackRedirect[];
}

export class McpSignIn {
  /** Servers whose sign-in the user started: only these may open the browser. */
  private readonly underWay = new Map<string, SignInUnderWay>();

  constructor(private readonly options: McpSignInOptions) {}

  /** The hub's `services` for one server: an OAuth provider for a remote one. */
  services(definition: McpServerDefinition): Omit<SessionServices, 'serverName'> {
    if (definition.type !== 'http' && definition.type !== 'sse') return {};
    const key = connectionKey(definition.name, definition.source);
    const clientId = definition.oauth?.clientId;
    const authProvider = new McpOAuthProvider({
      clientName: this.options.clientName,
      // The authorization request and the token exchange both read it, so one sign-in uses one port.
      redirectUrl: () => loopbackRedirectUrl(this.underWay.get(key)?.port ?? this.preferredPort),
      preregistered: clientId === undefined ? undefined : { clientId },
      clientMetadataUrl: definition.oauth?.clientMetadataUrl,
      scopes: definition.oauth?.scopes,
      store: this.options.storeFor(definition),
      authorize: (url) => {
        const signIn = this.underWay.get(key);
        return signIn === undefined ? undefined : this.browserStep(url, signIn);
      },
    });
    return { authProvider };
  }

  /** Signs in to one server: restarts it with the browser step allowed; resolves when it is up (or failed). */
  async signIn(hub: McpHub, server: Required<McpServerKey>): Promise<void> {
    const key = connectionKey(server.name, server.source);
    // A sign-in started again (the first tab was closed) replaces the earlier one and frees its port.
    this.underWay.get(key)?.listeners.forEach((listener) => listener.close());
    this.options.log?.(`sign-in to MCP server "${server.name}" started`);
    // Listening before the server is asked: the port is known when the authorization URL is made.
    const listener = await listenForRedirectOnFreePort(this.preferredPort, this.timeoutMs, this.options.log);
    const signIn: SignInUnderWay = { port: listener.port, unused: listener, listeners: [listener] };
    this.underWay.set(key, signIn);
    try {
      await hub.restart(server);
    } finally {
      if (this.underWay.get(key) === signIn) this.underWay.delete(key);
      for (const each of signIn.listeners) each.close();
    }
  }

  private get preferredPort(): number {
    return this.options.redirectPort ?? LOOPBACK_REDIRECT_PORT;
  }

  private get timeoutMs(): number {
    return this.options.timeoutMs ?? 5 * 60_000;
  }

  private async browserStep(url: URL, signIn: SignInUnderWay): Promise<URL> {
    // The address comes from the server's metadata: only a web page opens, never another scheme's handler
    // (`vscode://` for an extension, `file:`, an OS protocol handler).
    if (!(url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackUrl(url.href)))) {
      throw new Error(`the server's sign-in page is not an https address (${url.protocol}//…), so Tandem does not open it`);
    }
    let listener = signIn.unused;
    signIn.unused = undefined;
    if (listener === undefined) {
      listener = await listenForRedirect(signIn.port, this.timeoutMs);
      signIn.listeners.push(listener);
    }
    try {
      await this.options.openBrowser(url);
    } catch (error) {
      listener.close();
      throw error;
    }
    return listener.redirect;
  }
}
