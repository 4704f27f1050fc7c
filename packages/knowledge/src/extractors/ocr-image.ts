import { describeLimit, type InputLimits } from '@tandem/contracts';
import { ParseError } from './errors';
import type { ImageDimensions } from './image-header';

/**
 * The largest scale, up to `preferred`, at which a width × height picture fits in `maxPixels`.
 * Big pictures are made smaller rather than refused: OCR still reads them at a lower resolution.
 */
export function fitScale(
  { width, height }: ImageDimensions,
  maxPixels: number,
  preferred = 1,
): number {
  const area = width * height;
  if (!(area > 0)) return preferred;
  return Math.min(preferred, Math.sqrt(maxPixels / area));
}

export interface OcrInput {
  /** An encoded image tesseract reads (the original bytes, or a PNG when scaled). */
  image: Uint8Array;
  warnings: string[];
}

const thousands = (value: number): string => value.toLocaleString('en-US');

/**
 * tesseract's WASM memory grows with the pixels it reads: measured on a text image, +350 MB
 * at 16 MP and +870 MB at 49 MP (under IMAGE_MAX_PIXELS), against a budget of +512 MB for a
 * server of about 400 MB. So images over PDF_MAX_PAGE_PIXELS, the budget for a rendered page,
 * are scaled down to it (decoded and redrawn with @napi-rs/canvas) before OCR: +400 MB at
 * most for a 49 MP image.
 */
export async function scaleImageForOcr(
  bytes: Uint8Array,
  dimensions: ImageDimensions,
  limits: InputLimits,
): Promise<OcrInput> {
  const scale = fitScale(dimensions, limits.pdfMaxPagePixels);
  if (scale >= 1) return { image: bytes, warnings: [] };
  const { createCanvas, loadImage } = await import('@napi-rs/canvas');
  const width = Math.max(1, Math.floor(dimensions.width * scale));
  const height = Math.max(1, Math.floor(dimensions.height * scale));
  let picture: Awaited<ReturnType<typeof loadImage>>;
  try {
    picture = await loadImage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } catch {
    throw new ParseError('image', 'its pixel data is damaged or cut short.');
  }
  const canvas = createCanvas(width, height);
  let image: Uint8Array;
  try {
    canvas.getContext('2d').drawImage(picture, 0, 0, width, height);
    image = new Uint8Array(await canvas.encode('png'));
  } finally {
    // Frees the native pixels now rather than at some later GC: the decoded original (200 MB at
    // 50 MP) would otherwise still be held while tesseract reads the smaller copy.
    picture.src = new Uint8Array(0);
    canvas.width = 0;
    canvas.height = 0;
  }
  const from = `${thousands(dimensions.width)} × ${thousands(dimensions.height)}`;
  return {
    image,
    warnings: [
      `The image was scaled down from ${from} to ${thousands(width)} × ${thousands(height)} pixels for OCR; the limit is ${describeLimit('pdfMaxPagePixels', limits.pdfMaxPagePixels)}.`,
    ],
  };
}
