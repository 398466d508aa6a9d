// The client the official MCP conformance suite runs (`tsx client.ts <url>`,
// scenario in MCP_CONFORMANCE_SCENARIO, its data in MCP_CONFORMANCE_CONTEXT).
// It drives Tandem's own MCP layer (McpHub, as the extension does): the only
// differences are that OAuth's browser step follows the redirect itself and
// elicitation is answered from the scenario instead of the panel's card.
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { McpHub } from '../../src/mcp/mcpHub';
import { memoryOAuthStore, McpOAuthProvider } from '../../src/mcp/mcpOAuthProvider';
import type { ElicitationAnswer, ElicitationRequest } from '../../src/tools/elicitation';
import type { McpServerDefinition } from '../../src/mcp/mcpConfig';
import type { ToolContext } from '../../src/tools/tool';
import { crossAppAccessProvider } from './crossAppAccess';

const REDIRECT_URL = 'http://127.0.0.1:33418/callback';
/** The suite's authorization server accepts this one Client ID Metadata Document URL (it cannot fetch any other). */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

async function main(): Promise<void> {
  const serverUrl = process.argv[2];
  const scenario = process.env['MCP_CONFORMANCE_SCENARIO'] ?? '';
  if (serverUrl === undefined) throw new Error('usage: client.ts <server-url>');
  const context = parseContext(process.env['MCP_CONFORMANCE_CONTEXT']);
  const authProvider = scenario.startsWith('auth/') ? await providerFor(scenario, context, serverUrl) : undefined;
  const hub = new McpHub({
    clientIdentity: { name: 'tandem', version: '0.1.0' },
    log: (line) => process.stderr.write(`${line}\n`),
    restartDelayMs: 60_000,
    services: () => ({ authProvider, elicitation: answerFromScenario }),
  });
  const definition: McpServerDefinition = {
    type: 'http',
    name: 'conformance',
    source: 'conformance',
    url: serverUrl,
    headers: {},
    workspaceFolder: undefined,
    inputs: [],
    timeoutMs: 20_000,
  };
  try {
    await hub.update([definition]);
    const status = hub.statuses()[0];
    if (status?.state !== 'connected') throw new Error(`not connected: ${status?.error ?? status?.state}`);
    for (const tool of hub.tools()) {
      const result = await tool.run(argumentsFor(tool.name), toolContext(tool.name));
      process.stderr.write(`${tool.name}: ${result.isError === true ? 'error: ' : ''}${result.text}\n`);
      if (result.isError === true && scenario.startsWith('auth/')) throw new Error(result.text);
    }
  } finally {
    await hub.dispose();
  }
}

/** The scenario's tools take numbers (add_numbers) or nothing. */
function argumentsFor(toolName: string): Record<string, unknown> {
  return toolName.endsWith('add_numbers') ? { a: 5, b: 3 } : {};
}

function toolContext(toolName: string): ToolContext {
  return {
    runId: 'conformance',
    callId: toolName,
    signal: new AbortController().signal,
    approval: { request: async () => true },
  };
}

/** The user accepts and leaves every field empty: the schema's defaults must fill them. */
async function answerFromScenario(request: ElicitationRequest): Promise<ElicitationAnswer> {
  return request.mode === 'form' ? { action: 'accept', content: {} } : { action: 'accept' };
}

async function providerFor(scenario: string, context: Record<string, unknown>, serverUrl: string): Promise<OAuthClientProvider> {
  const text = (key: string): string => {
    const value = context[key];
    if (typeof value !== 'string') throw new Error(`context has no "${key}"`);
    return value;
  };
  if (scenario === 'auth/client-credentials-basic') {
    const { ClientCredentialsProvider } = await import('@modelcontextprotocol/sdk/client/auth-extensions.js');
    return new ClientCredentialsProvider({ clientId: text('client_id'), clientSecret: text('client_secret') });
  }
  if (scenario === 'auth/client-credentials-jwt') {
    const { PrivateKeyJwtProvider } = await import('@modelcontextprotocol/sdk/client/auth-extensions.js');
    const algorithm = typeof context['signing_algorithm'] === 'string' ? context['signing_algorithm'] : 'ES256';
    return new PrivateKeyJwtProvider({ clientId: text('client_id'), privateKey: text('private_key_pem'), algorithm });
  }
  if (scenario === 'auth/cross-app-access-complete-flow') {
    return crossAppAccessProvider({
      serverUrl,
      clientId: text('client_id'),
      clientSecret: text('client_secret'),
      idpClientId: text('idp_client_id'),
      idpIdToken: text('idp_id_token'),
      idpTokenEndpoint: text('idp_token_endpoint'),
    });
  }
  const preregistered = typeof context['client_id'] === 'string'
    ? { clientId: context['client_id'], clientSecret: typeof context['client_secret'] === 'string' ? context['client_secret'] : undefined }
    : undefined;
  return new McpOAuthProvider({
    clientName: 'Tandem',
    redirectUrl: REDIRECT_URL,
    clientMetadataUrl: CLIENT_METADATA_URL,
    preregistered,
    store: memoryOAuthStore(),
    authorize: followRedirect,
  });
}

/** The browser step without a browser: the test authorization server redirects at once. */
async function followRedirect(authorizationUrl: URL): Promise<URL> {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  const location = response.headers.get('location');
  if (location === null) throw new Error(`authorization endpoint answered ${response.status} without a redirect`);
  return new URL(location, authorizationUrl);
}

function parseContext(raw: string | undefined): Record<string, unknown> {
  if (raw === undefined || raw === '') return {};
  const parsed: unknown = JSON.parse(raw);
  return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`conformance client failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
