// What counts as a base URL Tandem may send requests to: http or https, and
// nothing that is not part of a URL (no spaces). Settings, the model client and
// the welcome view's checks all ask the same question.

export function isHttpUrl(text: string): boolean {
  return /^https?:\/\/\S+$/i.test(text);
}

/**
 * A host name on this machine or its network: a bare name (`gpu-box`),
 * `.local`/`.localhost`/`.internal`, loopback, the private IPv4 ranges,
 * link-local, and IPv6 loopback, unique-local and link-local addresses.
 */
export function isLocalNetworkHost(host: string): boolean {
  return /^([\w-]+|[\w-]+\.(local|localhost|internal)|127\.\d+\.\d+\.\d+|0\.0\.0\.0|10\.\d+\.\d+\.\d+|192\.168\.\d+\.\d+|169\.254\.\d+\.\d+|172\.(1[6-9]|2\d|3[01])\.\d+\.\d+|\[(::1|f[cd][\da-f]*:[\da-f:]*|fe80:[\da-f:]*)\])$/i.test(host);
}

/** A base URL on this machine (localhost, 127.x.x.x, [::1]); false for anything that is not a URL. */
export function isLoopbackUrl(text: string): boolean {
  try {
    const host = new URL(text).hostname.toLowerCase();
    return host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
  } catch {
    return false;
  }
}
