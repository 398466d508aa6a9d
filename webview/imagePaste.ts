// Images pasted into the prompt box (a screenshot of the bug) go to the host,
// which shows each as a context chip and sends it with the next message as a
// picture. Text pasted with them still goes into the box. The page reads an
// image only up to the models' limit; a bigger one is sent on without its
// data, so that its chip can say why it will not go.
import { isImageType, MAX_IMAGE_BYTES } from '../src/protocol/imageRules';
import type { FromWebview } from '../src/protocol/webviewMessages';

/** What the page keeps of the images it sent: each one's data URL, to show in its chip (`data-path` `image:<id>`). */
export interface PastedImages {
  /** Sends an image file on as if pasted (a dropped one). */
  add(file: File): void;
  thumbnail(chipPath: string): string | undefined;
  /** Lets go of the images whose chips are gone. */
  keepOnly(chipPaths: readonly string[]): void;
}

export function attachImagePaste(prompt: HTMLTextAreaElement, post: (message: FromWebview) => void): PastedImages {
  const shown = new Map<string, string>();
  const seen = new Set<string>();
  prompt.addEventListener('paste', (event) => {
    const clipboard = event.clipboardData;
    if (!clipboard) return;
    const images = [...clipboard.items].filter((item) => item.kind === 'file' && item.type.startsWith('image/')).flatMap((item) => item.getAsFile() ?? []);
    if (images.length === 0) return;
    // Only pictures on the clipboard: nothing to type, and the browser would paste nothing useful.
    if (!clipboard.types.includes('text/plain')) event.preventDefault();
    // A blob of this page that cannot be read is not worth a message: nothing is attached.
    for (const file of images) sendImage(file, post, shown).catch(() => undefined);
  });
  return {
    add: (file) => void sendImage(file, post, shown).catch(() => undefined),
    thumbnail: (chipPath) => shown.get(chipPath),
    keepOnly: (chipPaths) => {
      // Only a chip seen and gone lets go: the host's list may still be one from before the paste reached it.
      for (const path of chipPaths) if (shown.has(path)) seen.add(path);
      for (const path of [...seen]) {
        if (chipPaths.includes(path)) continue;
        seen.delete(path);
        shown.delete(path);
      }
    },
  };
}

async function sendImage(file: File, post: (message: FromWebview) => void, shown: Map<string, string>): Promise<void> {
  // Random, not counted: the host's chips outlive this page (a hidden view comes back as a new one).
  const id = crypto.randomUUID();
  const base = { type: 'attachImage' as const, id, mimeType: file.type, bytes: file.size, ...(file.name ? { name: file.name } : {}) };
  if (file.size > MAX_IMAGE_BYTES) {
    post({ ...base, data: '' });
    return;
  }
  const data = await base64Of(file);
  // Shown as the picture it is only when it is one the panel can draw: the host still decides what goes.
  if (isImageType(file.type)) shown.set(`image:${id}`, `data:${file.type};base64,${data}`);
  post({ ...base, data });
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
