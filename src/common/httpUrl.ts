// What counts as a base URL Tandem may send requests to: http or https, and
// nothing that is not part of a URL (no spaces). Settings, the model client and
// the welcome view's checks all ask the same question.

export function isHttpUrl(text: string): boolean {
  return /^https?:\/\/\S+$/i.test(text);
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
