// How a file's bytes become text. Tandem reads and writes UTF-8; a file in
// another encoding is read correctly (UTF-16 by its byte-order mark, other
// bytes that are not valid UTF-8 as Windows-1252, the usual legacy encoding)
// but is not rewritten: writing it back as UTF-8 would change every character
// outside the edit, where neither the diff nor the user would see it.
import { looksBinary } from './workspaceToolSupport';

export type FileEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

export type DecodedFile = { readonly kind: 'text'; readonly text: string; readonly encoding: FileEncoding } | { readonly kind: 'binary' };

// ignoreBOM keeps a UTF-8 byte-order mark in the text, so a file written back keeps it.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function decodeFileBytes(bytes: Uint8Array): DecodedFile {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { kind: 'text', text: new TextDecoder('utf-16le').decode(bytes), encoding: 'utf-16le' };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { kind: 'text', text: new TextDecoder('utf-16be').decode(bytes), encoding: 'utf-16be' };
  if (looksBinary(bytes)) return { kind: 'binary' };
  try {
    return { kind: 'text', text: strictUtf8.decode(bytes), encoding: 'utf-8' };
  } catch {
    return { kind: 'text', text: decodeWindows1252(bytes), encoding: 'windows-1252' };
  }
}

/** What Windows-1252 puts at 0x80–0x9F (unassigned bytes keep their Latin-1 control character). */
const WINDOWS_1252_HIGH = '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

// Node's TextDecoder('windows-1252') decodes as Latin-1 (0x80–0x9F become control characters), so the table is applied here.
function decodeWindows1252(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('latin1').replace(/[\u0080-\u009f]/gu, (char) => WINDOWS_1252_HIGH[char.charCodeAt(0) - 0x80] ?? char);
}

const encodingNames: Record<FileEncoding, string> = {
  'utf-8': 'UTF-8',
  'utf-16le': 'UTF-16 LE',
  'utf-16be': 'UTF-16 BE',
  'windows-1252': 'Windows-1252 (it is not valid UTF-8)',
};

export function encodingName(encoding: FileEncoding): string {
  return encodingNames[encoding];
}
