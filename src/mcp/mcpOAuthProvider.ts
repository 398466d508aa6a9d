// OAuth for one remote MCP server, on top of the SDK's auth() (metadata
// discovery, PKCE, Client ID Metadata Documents, dynamic registration,
// refresh). What differs between the extension and a test is injected: where
// the credentials are kept and how the user's browser step happens.
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

/** Where one server's credentials live (SecretStorage in the extension). */
export interface McpOAuthStore {
  load(): Promise<McpOAuthState | undefined>;
  save(state: McpOAuthState): Promise<void>;
}

export interface McpOAuthState {
  readonly tokens?: OAuthTokens | undefined;
  readonly client?: OAuthClientInformationMixed | undefined;
}

export interface McpOAuthOptions {
  readonly clientName: string;
  /** Where the authorization server sends the browser back to (read at each sign-in: its port may change). */
  readonly redirectUrl: string | (() => string);
  /** A Client ID Metadata Document URL; used when the server supports it, else registration. */
  readonly clientMetadataUrl?: string | undefined;
  /** A client registered beforehand (`oauth.clientId` in mcp.json). */
  readonly preregistered?: { readonly clientId: string; readonly clientSecret?: string | undefined } | undefined;
  /** Scopes asked for when neither the server's challenge nor its metadata name any. */
  readonly scopes?: readonly string[] | undefined;
  readonly store: McpOAuthStore;
  /**
   * The user's browser step: open the URL, resolve with the redirect URL it
   * came back to. Undefined: no sign-in now (the user did not ask for one);
   * the server then shows as "sign-in required".
   */
  readonly authorize: (authorizationUrl: URL) => Promise<URL> | undefined;
}

/** The result of the browser step; the session layer exchanges the code for tokens. */
export class PendingAuthorization {
  constructor(
    readonly redirect: Promise<URL>,
    private readonly expectedState: string,
  ) {}

  async code(): Promise<string> {
    const url = await this.redirect;
    const error = url.searchParams.get('error');
    if (error !== null) throw new Error(`Sign-in was refused: ${error}${describeOptional(url.searchParams.get('error_description'))}`);
    if (url.searchParams.get('state') !== this.expectedState) throw new Error('Sign-in answered with an unexpected state; ignored.');
    const code = url.searchParams.get('code');
    if (code === null || code === '') throw new Error('Sign-in came back without an authorization code.');
    return code;
  }
}

export class McpOAuthProvider implements OAuthClientProvider {
  private verifier: string | undefined;
  private currentState: string | undefined;
  private pending: PendingAuthorization | undefined;
  private cache: McpOAuthState | undefined;

  constructor(private readonly options: McpOAuthOptions) {}

  get redirectUrl(): string {
    const url = this.options.redirectUrl;
    return typeof url === 'string' ? url : url();
  }

  get clientMetadataUrl(): string | undefined {
    return this.options.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const scope = this.options.scopes?.join(' ');
    return {
      client_name: this.options.clientName,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: this.options.preregistered?.clientSecret === undefined ? 'none' : 'client_secret_basic',
      ...(scope === undefined || scope === '' ? {} : { scope }),
    };
  }

  state(): string {
    this.currentState = randomState();
    return this.currentState;
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const pre = this.options.preregistered;
    if (pre !== undefined) return { client_id: pre.clientId, ...(pre.clientSecret === undefined ? {} : { client_secret: pre.clientSecret }) };
    return (await this.load()).client;
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    await this.update({ client });
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    return (await this.load()).tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    await this.update({ tokens });
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    // Not awaited here: the SDK reports "redirect" at once and the session waits on pending.
    const redirect = this.options.authorize(authorizationUrl);
    if (redirect === undefined) return;
    redirect.catch(() => undefined);
    this.pending = new PendingAuthorization(redirect, this.currentState ?? authorizationUrl.searchParams.get('state') ?? '');
  }

  /** The browser step started by the last redirect, taken once. */
  takePending(): PendingAuthorization | undefined {
    const pending = this.pending;
    this.pending = undefined;
    return pending;
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined) throw new Error('No sign-in is in progress.');
    return this.verifier;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier' || scope === 'discovery') {
      if (scope === 'verifier') this.verifier = undefined;
      return;
    }
    const current = await this.load();
    await this.replace({
      tokens: scope === 'client' ? current.tokens : undefined,
      client: scope === 'tokens' ? current.client : undefined,
    });
  }

  private async load(): Promise<McpOAuthState> {
    this.cache ??= (await this.options.store.load()) ?? {};
    return this.cache;
  }

  private async update(change: McpOAuthState): Promise<void> {
    await this.replace({ ...(await this.load()), ...change });
  }

  private async replace(state: McpOAuthState): Promise<void> {
    this.cache = state;
    await this.options.store.save(state);
  }
}

/** Keeps credentials in memory only (tests, and servers the user signs in to per session). */
export function memoryOAuthStore(): McpOAuthStore {
  let state: McpOAuthState | undefined;
  return {
    load: async () => state,
    save: async (next) => {
      state = next;
    },
  };
}

function randomState(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return Buffer.from(bytes).toString('base64url');
}

function describeOptional(text: string | null): string {
  return text === null || text === '' ? '' : ` (${text})`;
}
