// The images a tool returned, shown under its result, and those pasted with a
// question, shown under it. The host sends only
// images a model could be sent (src/protocol/imageRules.ts: raster types,
// base64, size-capped); the panel checks again before making a data: URL of
// one, so nothing else (an SVG, a stray URL) reaches an <img>. The panel keeps
// the latest few: a server that returns a screenshot per call would otherwise
// fill the page's memory over a long conversation.
import type { ToolImage } from '../src/protocol/agentEvents';
import { base64Bytes, isBase64, isImageType } from '../src/protocol/imageRules';
import { touch, type ConversationView, type ToolResultStep, type UserStep } from './steps';
import { byteSize } from '../src/common/byteSize';

/** Images the panel keeps showing, the latest first, and their bytes together at most. */
export const PANEL_IMAGES_KEPT = 12;
export const PANEL_IMAGE_BYTES = 32 * 1024 * 1024;

export function isShowableImage(image: unknown): image is ToolImage {
  const candidate = image as Partial<ToolImage> | null | undefined;
  return typeof candidate?.mimeType === 'string' && isImageType(candidate.mimeType) && typeof candidate.data === 'string' && isBase64(candidate.data);
}

/**
 * Takes the images off the results before the latest ones that fit in
 * PANEL_IMAGES_KEPT and PANEL_IMAGE_BYTES: from the newest result back, the
 * first that does not fit ends the keeping, so what is shown is always the
 * most recent run of pictures. A result that loses its images says so. The
 * newest result keeps its own whatever they weigh (the host caps a result).
 */
export function keepLatestImages(view: ConversationView): void {
  let images = 0;
  let bytes = 0;
  let keeping = true;
  for (let index = view.steps.length - 1; index >= 0; index--) {
    const step = view.steps[index];
    if ((step?.kind !== 'tool-result' && step?.kind !== 'user') || !step.images) continue;
    const size = step.images.reduce((sum, image) => sum + base64Bytes(image.data), 0);
    const first = images === 0;
    keeping = keeping && (first || (images + step.images.length <= PANEL_IMAGES_KEPT && bytes + size <= PANEL_IMAGE_BYTES));
    if (keeping) {
      images += step.images.length;
      bytes += size;
      continue;
    }
    step.imagesNoLongerShown = step.images.length;
    step.images = undefined;
    touch(view, step);
  }
}

/** The node showing a result's images, built once per list: a redraw of its step moves it, keeping its size and the decoded pictures. */
const built = new WeakMap<readonly ToolImage[], HTMLElement>();

/** Thumbnails of a result's or a question's images; a click (or Enter) shows one at full size, again shows it small. */
export function resultImages(step: ToolResultStep | UserStep): HTMLElement | undefined {
  const from = step.kind === 'user' ? 'you sent' : `from ${step.name}`;
  if (step.images?.length) {
    const images = step.images;
    const existing = built.get(images);
    if (existing) return existing;
    const list = document.createElement('div');
    list.className = 'result-images';
    images.forEach((image, index) => list.append(thumbnail(image, `Image ${index + 1} of ${images.length} ${from}`)));
    built.set(images, list);
    return list;
  }
  if (!step.imagesNoLongerShown) return undefined;
  const note = document.createElement('div');
  note.className = 'result-images-note';
  const one = step.imagesNoLongerShown === 1;
  const describedBy = step.kind === 'user' ? "The question's text" : "The result's text";
  note.textContent = `${one ? 'Its image is' : `Its ${step.imagesNoLongerShown} images are`} no longer shown: the panel keeps only the latest images (${PANEL_IMAGES_KEPT}, ${byteSize(PANEL_IMAGE_BYTES)} at most). ${describedBy} describes ${one ? 'it' : 'them'}.`;
  return note;
}

function thumbnail(image: ToolImage, alt: string): HTMLImageElement {
  const picture = document.createElement('img');
  picture.className = 'result-image';
  picture.dataset['testid'] = 'result-image';
  picture.alt = alt;
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
  return picture;
}
