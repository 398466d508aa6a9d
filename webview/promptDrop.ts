// Files dropped on the prompt box: an image file goes as a pasted image does;
// files and folders from VS Code's explorer (their URIs on the drag) are
// attached as the explorer's "Add to Tandem Context" attaches them. VS Code
// hands a drag to a webview only while Shift is held.
import type { FromWebview } from '../src/protocol/webviewMessages';
import type { PastedImages } from './imagePaste';

/** The drag's kinds this box takes. */
const URI_LISTS = ['application/vnd.code.uri-list', 'text/uri-list'];

export function attachPromptDrop(prompt: HTMLTextAreaElement, post: (message: FromWebview) => void, images: PastedImages): void {
  const takes = (transfer: DataTransfer | null) => transfer !== null && (transfer.types.includes('Files') || URI_LISTS.some((type) => transfer.types.includes(type)));
  prompt.addEventListener('dragover', (event) => {
    if (!takes(event.dataTransfer)) return;
    event.preventDefault();
    if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
  });
  prompt.addEventListener('drop', (event) => {
    const transfer = event.dataTransfer;
    if (!transfer || !takes(transfer)) return;
    event.preventDefault();
    const uris = droppedUris(transfer);
    if (uris.length > 0) {
      post({ type: 'dropUris', uris: uris.slice(0, 100) });
      return;
    }
    // From outside VS Code: only pictures can be read here (a page sees no file's path).
    for (const file of transfer.files) if (file.type.startsWith('image/')) images.add(file);
  });
}

/** The URIs a drag carries: VS Code's own list (every item dragged) first, else the standard one; both a line each, `#` for comments. */
function droppedUris(transfer: DataTransfer): string[] {
  for (const type of URI_LISTS) {
    const uris = transfer
      .getData(type)
      .split(/\r?\n/u)
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#'));
    if (uris.length > 0) return uris;
  }
  return [];
}
