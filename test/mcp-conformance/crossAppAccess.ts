// Enterprise-managed sign-in (SEP-990, an MCP auth extension) for the suite's
// cross-app-access scenario: the IdP's ID token is exchanged at the IdP for an
// identity assertion grant, which the authorization server turns into an
// access token (jwt-bearer). Plugged into Tandem's layer as an ordinary
// OAuthClientProvider, so the transport's auth() does the rest.
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

export interface CrossAppAccessOptions {
  readonly serverUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly idpClientId: string;
  readonly idpIdToken: string;
  readonly idpTokenEndpoint: string;
}

const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

export function crossAppAccessProvider(options: CrossAppAccessOptions): OAuthClientProvider {
  let tokens: OAuthTokens | undefined;
  const metadata: OAuthClientMetadata = {
    client_name: 'Tandem',
    redirect_uris: [],
    grant_types: [JWT_BEARER],
    token_endpoint_auth_method: 'client_secret_basic',
  };
  return {
    get redirectUrl() {
      return undefined;
    },
    get clientMetadata() {
      return metadata;
    },
    clientInformation: () => ({ client_id: options.clientId, client_secret: options.clientSecret }),
    tokens: () => tokens,
    saveTokens: (next) => {
      tokens = next;
    },
    redirectToAuthorization: () => {
      throw new Error('Enterprise-managed sign-in has no browser step.');
    },
    saveCodeVerifier: () => undefined,
    codeVerifier: () => {
      throw new Error('Enterprise-managed sign-in uses no PKCE verifier.');
    },
    prepareTokenRequest: async () => new URLSearchParams({ grant_type: JWT_BEARER, assertion: await identityAssertion(options) }),
  };
}

/** Step one: the ID token becomes an identity assertion grant for this authorization server and resource. */
async function identityAssertion(options: CrossAppAccessOptions): Promise<string> {
  const { discoverOAuthProtectedResourceMetadata, discoverAuthorizationServerMetadata } = await import('@modelcontextprotocol/sdk/client/auth.js');
  const resource = await discoverOAuthProtectedResourceMetadata(options.serverUrl);
  const authorizationServer = resource.authorization_servers?.[0];
  if (authorizationServer === undefined) throw new Error('The server names no authorization server.');
  const server = await discoverAuthorizationServerMetadata(authorizationServer);
  if (server === undefined) throw new Error(`No metadata at ${authorizationServer}.`);
  const response = await fetch(options.idpTokenEndpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: TOKEN_EXCHANGE,
      requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
      subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
      subject_token: options.idpIdToken,
      audience: server.issuer,
      resource: resource.resource,
      client_id: options.idpClientId,
    }),
  });
  if (!response.ok) throw new Error(`The identity provider refused the exchange: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as { access_token?: unknown };
  if (typeof body.access_token !== 'string') throw new Error('The identity provider returned no assertion.');
  return body.access_token;
}
