// Short probes of OpenAI-compatible endpoints: does anything answer at a base
// URL, and which models does a local server (Ollama, LM Studio) offer? Each
// probe gives up after 1.5 s; a refused connection is "nothing answers" at
// once. No key is ever sent: any HTTP answer counts as an answer.
import { isHttpUrl } from '../common/httpUrl';

/** How long a probe waits for an answer. */
export const PROBE_TIMEOUT_MS = 1500;

export interface LocalServer {
  readonly name: string;
  /** The OpenAI-compatible base URL, e.g. `http://127.0.0.1:11434/v1`. */
  readonly baseUrl: string;
}

export interface FoundServer extends LocalServer {
  readonly models: readonly string[];
}

/** Where local model servers listen by default. */
export const DEFAULT_LOCAL_SERVERS: readonly LocalServer[] = [
  { name: 'Ollama', baseUrl: 'http://127.0.0.1:11434/v1' },
  { name: 'LM Studio', baseUrl: 'http://127.0.0.1:1234/v1' },
];

/**
 * The local servers to look for. `TANDEM_LOCAL_SERVERS` replaces the default
 * list (tests point it at a scripted server): comma-separated `Name=baseUrl`.
 * Entries that are not `Name=http(s)://…` are skipped.
 */
export function localServersFrom(env: Readonly<Record<string, string | undefined>>): readonly LocalServer[] {
  const text = env['TANDEM_LOCAL_SERVERS']?.trim();
  if (!text) return DEFAULT_LOCAL_SERVERS;
  const servers: LocalServer[] = [];
  for (const entry of text.split(',')) {
    const at = entry.indexOf('=');
    const name = entry.slice(0, at).trim();
    const baseUrl = entry.slice(at + 1).trim().replace(/\/+$/, '');
    if (at > 0 && name && isHttpUrl(baseUrl)) servers.push({ name, baseUrl });
  }
  return servers;
}

/** Model ids from a /models answer: OpenAI's `{ data: [{ id }] }` or Ollama's `{ models: [{ name }] }`; sorted, unique. */
export function parseModelList(body: unknown): string[] {
  if (!body || typeof body !== 'object') return [];
  const record = body as Record<string, unknown>;
  const entries = Array.isArray(record['data']) ? record['data'] : Array.isArray(record['models']) ? record['models'] : [];
  const ids = new Set<string>();
  for (const entry of entries) {
    const value = typeof entry === 'string' ? entry : entry && typeof entry === 'object' ? ((entry as Record<string, unknown>)['id'] ?? (entry as Record<string, unknown>)['name'] ?? (entry as Record<string, unknown>)['model']) : undefined;
    if (typeof value === 'string' && value.trim() && value.length <= 300) ids.add(value.trim());
  }
  return [...ids].sort((a, b) => a.localeCompare(b));
}

export interface ProbeResult {
  /** Something answered over HTTP (any status). */
  readonly reachable: boolean;
  /** The models listed, when the answer was a model list. */
  readonly models: readonly string[];
  /** The answer was a web page (text/html): a web UI or a site, not an OpenAI-compatible API. */
  readonly webPage?: boolean | undefined;
}

/** GET `<baseUrl>/models`, at most `timeoutMs`; never throws. */
export async function probeEndpoint(baseUrl: string, options: { timeoutMs?: number; fetch?: typeof fetch; signal?: AbortSignal } = {}): Promise<ProbeResult> {
  const timeout = AbortSignal.timeout(options.timeoutMs ?? PROBE_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  try {
    const response = await (options.fetch ?? fetch)(`${baseUrl.trim().replace(/\/+$/, '')}/models`, { signal, redirect: 'manual' });
    let models: string[] = [];
    const webPage = /\btext\/html\b/i.test(response.headers.get('content-type') ?? '');
    if (response.ok && !webPage) {
      const text = await response.text();
      try {
        models = parseModelList(JSON.parse(text));
      } catch {
        // Not JSON: something answers, but lists nothing.
      }
    } else {
      await response.body?.cancel().catch(() => undefined);
    }
    return { reachable: true, models, webPage };
  } catch {
    return { reachable: false, models: [] };
  }
}

/** The local servers that answer, with their models, probed at once. */
export async function findLocalServers(servers: readonly LocalServer[], options: { timeoutMs?: number; fetch?: typeof fetch } = {}): Promise<FoundServer[]> {
  const results = await Promise.all(servers.map(async (server) => ({ server, result: await probeEndpoint(server.baseUrl, options) })));
  return results.filter(({ result }) => result.reachable && result.webPage !== true).map(({ server, result }) => ({ ...server, models: result.models }));
}
