// Reads a base URL typed into Tandem: Use an OpenAI-Compatible Endpoint…
// The key typed next is sent to it, so it must be plain: a host, maybe a
// port, a path. Credentials before the host (`https://api.openai.com@other.example`
// goes to other.example), a query or a fragment are refused with a reason.
import { isHttpUrl } from '../common/httpUrl';
import { withScheme } from './agentSettings';

export type EndpointInput = { readonly baseUrl: string } | { readonly problem: string };

const NOT_A_URL = 'Not a URL: start with http:// or https://, e.g. https://openrouter.ai/api/v1.';

export function endpointFromInput(text: string): EndpointInput {
  const trimmed = text.trim().replace(/\/+$/, '');
  // Before the scheme is added: typed without one, `api.openai.com@other.example` is refused for what it is.
  const credentials = /^(?:https?:\/\/)?[^/?#]*@([^/?#]*)/i.exec(trimmed);
  if (credentials) return credentialsProblem(credentials[1]!);
  const baseUrl = isHttpUrl(trimmed) ? trimmed : withScheme(trimmed);
  if (!baseUrl) return { problem: NOT_A_URL };
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return { problem: NOT_A_URL };
  }
  if (url.username !== '' || url.password !== '') return credentialsProblem(url.host);
  if (url.search !== '' || url.hash !== '' || /[?#]/.test(baseUrl)) {
    return { problem: 'A base URL has no query (?…) or fragment (#…): Tandem adds /chat/completions and /models to it.' };
  }
  return { baseUrl };
}

function credentialsProblem(host: string): EndpointInput {
  return { problem: `A name or password before "@" is not part of a base URL: requests (and the key) would go to ${host}. Type the endpoint's own address.` };
}
