// Cutting text by UTF-16 index can split a character outside the Basic
// Multilingual Plane (an emoji) into two lone halves, which show as garbage
// and make the text ill-formed: cuts move to the nearest whole character.

export function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

export function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Where to end a head of at most `limit` code units: one fewer rather than after half a pair. */
export function headEnd(text: string, limit: number): number {
  return limit > 0 && isHighSurrogate(text.charCodeAt(limit - 1)) ? limit - 1 : limit;
}

/** Where to start a tail that drops `from` code units: one more rather than before half a pair. */
export function tailStart(text: string, from: number): number {
  return from > 0 && isLowSurrogate(text.charCodeAt(from)) ? from + 1 : from;
}
