// The images a tool returned, shown under its result. The host sends only
// images a model could be sent (raster types, base64, size-capped); the panel
// checks again before making a data: URL of one, so nothing else (an SVG, a
// stray URL) reaches an <img>.
import type { ToolImage } from '../src/protocol/agentEvents';

const SHOWABLE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export function isShowableImage(image: unknown): image is ToolImage {
  const candidate = image as Partial<ToolImage> | null | undefined;
  return typeof candidate?.mimeType === 'string' && SHOWABLE_TYPES.has(candidate.mimeType) && typeof candidate.data === 'string' && BASE64.test(candidate.data);
}

/** Thumbnails of a result's images; each opens at full size in a dialog-free way: a click toggles its size. */
export function resultImages(images: readonly ToolImage[], toolName: string): HTMLElement {
  const list = document.createElement('div');
  list.className = 'result-images';
  images.forEach((image, index) => {
    const picture = document.createElement('img');
    picture.className = 'result-image';
    picture.dataset['testid'] = 'result-image';
    picture.alt = `Image ${index + 1} of ${images.length} from ${toolName}`;
    picture.title = 'Click to show at full size';
    picture.tabIndex = 0;
    picture.setAttribute('role', 'button');
    picture.setAttribute('aria-pressed', 'false');
    picture.src = `data:${image.mimeType};base64,${image.data}`;
    const toggle = () => {
      const full = picture.classList.toggle('full-size');
      picture.setAttribute('aria-pressed', String(full));
      picture.title = full ? 'Click to show smaller' : 'Click to show at full size';
    };
    picture.addEventListener('click', toggle);
    picture.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter' && event.key !== ' ') return;
      event.preventDefault();
      toggle();
    });
    list.append(picture);
  });
  return list;
}
