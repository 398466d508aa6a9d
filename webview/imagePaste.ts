// Images pasted into the prompt box (a screenshot of the bug) go to the host,
// which shows each as a context chip and sends it with the next message as a
// picture. Text pasted with them still goes into the box. The page reads an
// image only up to the models' limit; a bigger one is sent on without its
// data, so that its chip can say why it will not go.
import { MAX_IMAGE_BYTES } from '../src/protocol/imageRules';
import type { FromWebview } from '../src/protocol/webviewMessages';

export function attachImagePaste(prompt: HTMLTextAreaElement, post: (message: FromWebview) => void): void {
  prompt.addEventListener('paste', (event) => {
    const clipboard = event.clipboardData;
    if (!clipboard) return;
    const images = [...clipboard.items].filter((item) => item.kind === 'file' && item.type.startsWith('image/')).flatMap((item) => item.getAsFile() ?? []);
    if (images.length === 0) return;
    // Only pictures on the clipboard: nothing to type, and the browser would paste nothing useful.
    if (!clipboard.types.includes('text/plain')) event.preventDefault();
    // A blob of this page that cannot be read is not worth a message: nothing is attached.
    for (const file of images) sendImage(file, post).catch(() => undefined);
  });
}

async function sendImage(file: File, post: (message: FromWebview) => void): Promise<void> {
  const base = { type: 'attachImage' as const, mimeType: file.type, bytes: file.size, ...(file.name ? { name: file.name } : {}) };
  if (file.size > MAX_IMAGE_BYTES) {
    post({ ...base, data: '' });
    return;
  }
  post({ ...base, data: await base64Of(file) });
}

function base64Of(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error('the image could not be read'));
    reader.readAsDataURL(file);
  });
}
