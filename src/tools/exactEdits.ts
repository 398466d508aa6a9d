// Exact-string replacement, the edit a model can state without line numbers.
// Each edit applies to the result of the previous one; any failure leaves the
// whole set unapplied and says which edit failed and why.

export interface ExactEdit {
  readonly oldText: string;
  readonly newText: string;
  /** Replace every occurrence instead of requiring exactly one. */
  readonly replaceAll?: boolean | undefined;
}

export type ExactEditsOutcome =
  | { readonly ok: true; readonly text: string; readonly replacements: number }
  | { readonly ok: false; readonly message: string };

export function applyExactEdits(original: string, edits: readonly ExactEdit[]): ExactEditsOutcome {
  // Files with CRLF line ends still match text the model wrote with '\n'.
  const crlf = original.includes('\r\n');
  let text = original;
  let replacements = 0;
  for (const [index, edit] of edits.entries()) {
    const label = edits.length > 1 ? `edit ${index + 1} of ${edits.length}` : 'the edit';
    if (edit.oldText === '') return { ok: false, message: `${label}: oldText is empty; give the exact text to replace (use write_file for a new file).` };
    if (edit.oldText === edit.newText) return { ok: false, message: `${label}: oldText and newText are the same.` };
    let oldText = edit.oldText;
    let newText = edit.newText;
    if (crlf && !text.includes(oldText) && !oldText.includes('\r\n')) {
      oldText = oldText.replace(/\n/gu, '\r\n');
      newText = newText.replace(/\r?\n/gu, '\r\n');
    }
    const positions = occurrences(text, oldText);
    if (positions.length === 0) {
      return { ok: false, message: `${label}: oldText was not found. Read the file again and copy the text exactly, including whitespace.` };
    }
    if (positions.length > 1 && edit.replaceAll !== true) {
      const lines = positions.slice(0, 10).map((position) => lineOf(text, position));
      return {
        ok: false,
        message: `${label}: oldText occurs ${positions.length} times (lines ${lines.join(', ')}${positions.length > 10 ? ', …' : ''}); include more surrounding text so it is unique, or set replaceAll.`,
      };
    }
    text = text.split(oldText).join(newText);
    replacements += positions.length;
  }
  return { ok: true, text, replacements };
}

function occurrences(text: string, needle: string): number[] {
  const positions: number[] = [];
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) positions.push(at);
  return positions;
}

function lineOf(text: string, position: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at >= 0 && at < position; at = text.indexOf('\n', at + 1)) line += 1;
  return line;
}
