// Which API key may go to which endpoint. A key stored with "Tandem: Set API
// Key" belongs to the base URL it was stored for; OPENAI_API_KEY belongs to
// OpenAI's own host, or to a base URL the user set themselves (user settings,
// OPENAI_BASE_URL, AGENT_*_MODEL). A workspace that points a model at another
// host therefore never receives a key it was not given.

export const OPENAI_API_HOST = 'api.openai.com';
const secretPrefix = 'tandem.apiKey:';

/** The SecretStorage key of a base URL's API key: case and trailing slashes do not matter. */
export function secretKeyFor(baseUrl: string): string {
  return secretPrefix + baseUrl.trim().replace(/\/+$/, '').toLowerCase();
}

/** `https://host:port` of a URL, or undefined when it is not an http(s) URL. */
export function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url.trim());
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.origin.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}

/** True for OpenAI's own API over https. */
export function isOpenAiHost(baseUrl: string): boolean {
  return originOf(baseUrl) === `https://${OPENAI_API_HOST}`;
}

/** May OPENAI_API_KEY be sent to `baseUrl`? Only to OpenAI or a base URL (origin) the user set. */
export function environmentKeyAllowed(baseUrl: string, userBaseUrls: readonly string[]): boolean {
  if (isOpenAiHost(baseUrl)) return true;
  const origin = originOf(baseUrl);
  return origin !== undefined && userBaseUrls.some((userUrl) => originOf(userUrl) === origin);
}

export interface KeyChoice {
  readonly baseUrl: string;
  /** The key stored for exactly this base URL, if any. */
  readonly stored: string | undefined;
  /** OPENAI_API_KEY, if set. */
  readonly environmentKey: string | undefined;
  /** Base URLs the user set: user-scope settings and environment variables. */
  readonly userBaseUrls: readonly string[];
}

/** The key to send to `baseUrl`: its stored key, else OPENAI_API_KEY where allowed, else none. */
export function chooseApiKey(choice: KeyChoice): string | undefined {
  if (choice.stored) return choice.stored;
  if (choice.environmentKey && environmentKeyAllowed(choice.baseUrl, choice.userBaseUrls)) return choice.environmentKey;
  return undefined;
}

/**
 * Base URLs the user set outside any workspace: their user-scope settings and
 * the environment (OPENAI_BASE_URL, and the baseUrl in AGENT_FUNCTION_CALL_MODEL
 * or AGENT_ANSWER_MODEL). Unreadable values are skipped.
 */
export function userBaseUrls(userSettingValues: readonly unknown[], env: Readonly<Record<string, string | undefined>>): string[] {
  const urls: string[] = [];
  for (const value of userSettingValues) if (typeof value === 'string' && value.trim()) urls.push(value.trim());
  if (env['OPENAI_BASE_URL']?.trim()) urls.push(env['OPENAI_BASE_URL'].trim());
  for (const variable of ['AGENT_FUNCTION_CALL_MODEL', 'AGENT_ANSWER_MODEL']) {
    const text = env[variable];
    if (!text) continue;
    try {
      const parsed: unknown = JSON.parse(text);
      const baseUrl = (parsed as { baseUrl?: unknown } | null)?.baseUrl;
      if (typeof baseUrl === 'string' && baseUrl.trim()) urls.push(baseUrl.trim());
    } catch {
      // agentSettings reports the bad JSON; here it simply names no URL.
    }
  }
  return urls;
}
