// What counts as a base URL Tandem may send requests to: http or https, and
// nothing that is not part of a URL (no spaces). Settings, the model client and
// the welcome view's checks all ask the same question.

export function isHttpUrl(text: string): boolean {
  return /^https?:\/\/\S+$/i.test(text);
}
