import { InputTooComplexError } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import { ParseError } from './errors';
import { extractDocument } from './extract';
import { gifBomb, pngBomb, refusal } from './hostile-fixtures';

describe('images: IMAGE_MAX_PIXELS checked on the header, before decoding', () => {
  it('refuses a PNG that declares 100,000 × 100,000 pixels', async () => {
    const bomb = pngBomb(100_000, 100_000);
    expect(bomb.length).toBeLessThan(100);
    const error = await refusal(extractDocument(bomb, { fileName: 'bomb.png' }));
    expect(error).toBeInstanceOf(InputTooComplexError);
    expect((error as InputTooComplexError).limit).toBe('imageMaxPixels');
    expect(error.message).toBe(
      'The image declares 100,000 × 100,000 = 10,000,000,000 pixels; the limit is 50,000,000 pixels (IMAGE_MAX_PIXELS).',
    );
  });

  it('refuses a GIF whose logical screen is too large', async () => {
    const error = await refusal(
      extractDocument(gifBomb([65_535, 65_535], [[1, 1]]), { fileName: 'bomb.gif' }),
    );
    expect((error as InputTooComplexError).limit).toBe('imageMaxPixels');
    expect(error.message).toContain('(IMAGE_MAX_PIXELS)');
  });

  it('refuses a GIF with a small screen and a huge frame (decoders allocate per frame)', async () => {
    const error = await refusal(
      extractDocument(
        gifBomb(
          [1, 1],
          [
            [1, 1],
            [60_000, 60_000],
          ],
        ),
        { fileName: 'frames.gif' },
      ),
    );
    expect((error as InputTooComplexError).limit).toBe('imageMaxPixels');
    expect(error.message).toBe(
      'The GIF frames declare 3,600,000,001 pixels; the limit is 50,000,000 pixels (IMAGE_MAX_PIXELS).',
    );
  });

  it('refuses a 16-byte corrupt PNG as a parse error', async () => {
    const corrupt = new Uint8Array([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
    ]);
    const error = await refusal(extractDocument(corrupt, { fileName: 'broken.png' }));
    expect(error).toBeInstanceOf(ParseError);
    expect(error.message).toBe(
      'Could not parse image: its header is damaged or the file is cut short.',
    );
  });
});
