import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readAttachments } from '../../../src/host/contextAttachments';
import { imageAttachment, MAX_IMAGES_PER_MESSAGE } from '../../../src/host/imageAttachment';

/** A real 2×3 PNG (68 bytes). */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAIAAAA2iEnWAAAAC0lEQVR4nGNgwAIAABUAAapll8QAAAAASUVORK5CYII=';
const signal = new AbortController().signal;

describe('a pasted image as a context chip', () => {
  it('is described by what its bytes are, and goes with the message as a picture', async () => {
    const chip = imageAttachment({ id: 'p1', name: 'login-bug.png', mimeType: 'image/png', data: PNG, bytes: 68 }, 1, 0);
    assert.equal(chip.path, 'image:p1');
    assert.equal(chip.label, 'login-bug.png');
    assert.equal(chip.title, 'PNG image, 68 bytes, 2×3');
    assert.equal(chip.error, undefined);
    assert.deepEqual(chip.image, { mimeType: 'image/png', data: PNG });
    const attached = await readAttachments([chip], signal);
    assert.deepEqual(attached?.images, [{ mimeType: 'image/png', data: PNG }]);
    assert.deepEqual(attached?.labels, ['login-bug.png']);
    assert.match(attached?.text ?? '', /^\[Image login-bug\.png \(PNG image, 68 bytes, 2×3\) pasted by the user: attached to this message as a picture for this run; later turns keep only this line\.\]$/);
  });

  it("names a browser's generic clipboard file by its number, and takes the type from the data, not the page", () => {
    const chip = imageAttachment({ id: 'p2', name: 'image.png', mimeType: 'image/jpeg', data: PNG, bytes: 68 }, 3, 1);
    assert.equal(chip.label, 'Pasted image 3 (PNG)');
    assert.equal(chip.image?.mimeType, 'image/png');
  });

  it('refuses what is not a picture, what is too big and one image too many, saying why; none of them is sent', async () => {
    const text = imageAttachment({ id: 'p3', name: 'notes.png', mimeType: 'image/png', data: Buffer.from('just text, honestly').toString('base64'), bytes: 19 }, 1, 0);
    assert.equal(text.error, 'not a PNG, JPEG, GIF or WebP image');
    const svg = imageAttachment({ id: 'p4', name: 'logo.svg', mimeType: 'image/svg+xml', data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64'), bytes: 40 }, 2, 0);
    assert.equal(svg.error, 'not a PNG, JPEG, GIF or WebP image');
    const huge = imageAttachment({ id: 'p5', name: 'scan.png', mimeType: 'image/png', data: '', bytes: 12 * 1024 * 1024 }, 3, 0);
    assert.equal(huge.error, '12 MB, over the 5 MB an image may have');
    const fifth = imageAttachment({ id: 'p6', mimeType: 'image/png', data: PNG, bytes: 68 }, 5, MAX_IMAGES_PER_MESSAGE);
    assert.equal(fifth.error, `a message takes at most ${MAX_IMAGES_PER_MESSAGE} images`);
    const good = imageAttachment({ id: 'p7', mimeType: 'image/png', data: PNG, bytes: 68 }, 6, 0);
    const attached = await readAttachments([text, huge, fifth, good], signal);
    assert.deepEqual(attached?.images, [{ mimeType: 'image/png', data: PNG }], 'only the good one goes as a picture');
    assert.match(attached?.labels[1] ?? '', /^scan\.png \(not sent: 12 MB, over the 5 MB an image may have\)$/);
  });
});
