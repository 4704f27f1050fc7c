import { checkLimit, type InputLimits } from '@tandem/contracts';
import { imageSize } from 'image-size';
import { ParseError } from './errors';

export interface ImageDimensions {
  width: number;
  height: number;
}

const isGif = (bytes: Uint8Array): boolean =>
  bytes[0] === 0x47 && bytes[1] === 0x49 && bytes[2] === 0x46 && bytes[3] === 0x38;

const u16 = (bytes: Uint8Array, at: number): number =>
  (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8);

const colorTableSize = (packed: number): number =>
  packed & 0x80 ? 3 * 2 ** ((packed & 7) + 1) : 0;

/** Past a chain of data sub-blocks (a length byte, then that many bytes; 0 ends the chain). */
function skipSubBlocks(bytes: Uint8Array, at: number): number {
  let index = at;
  while (index < bytes.length && bytes[index] !== 0) index += (bytes[index] ?? 0) + 1;
  return index + 1;
}

/**
 * Pixels of every frame a GIF declares. The logical screen (what image-size reads) does not bound
 * them: giflib allocates each frame at the size its own image descriptor claims, so a 1×1 screen
 * can hold a 65,535 × 65,535 frame. Only the block structure is read, never the LZW data.
 */
function gifFramePixels(bytes: Uint8Array): number {
  let index = 13 + colorTableSize(bytes[10] ?? 0);
  let pixels = 0;
  while (index < bytes.length) {
    const block = bytes[index];
    if (block === 0x3b) break; // trailer
    if (block === 0x21) {
      index = skipSubBlocks(bytes, index + 2);
    } else if (block === 0x2c) {
      pixels += u16(bytes, index + 5) * u16(bytes, index + 7);
      index = skipSubBlocks(bytes, index + 10 + colorTableSize(bytes[index + 9] ?? 0) + 1);
    } else {
      break; // damaged: the decoder will say so; the frames seen so far are counted
    }
  }
  return pixels;
}

/**
 * Width and height from the image's header, before anything decodes it: a decompression bomb
 * (a small PNG or GIF that declares 100,000 × 100,000 pixels) is refused here as
 * InputTooComplexError (IMAGE_MAX_PIXELS), a header that cannot be read as a ParseError.
 * image-size reads PNG, JPEG (its SOF marker, past EXIF), WebP and GIF headers without decoding.
 */
export function checkImageHeader(bytes: Uint8Array, limits: InputLimits): ImageDimensions {
  let size: { width?: number; height?: number };
  try {
    size = imageSize(bytes);
  } catch {
    throw new ParseError('image', 'its header is damaged or the file is cut short.');
  }
  const { width = 0, height = 0 } = size;
  if (!(width > 0 && height > 0)) {
    throw new ParseError('image', 'its header gives no width and height.');
  }
  checkLimit(
    limits,
    'imageMaxPixels',
    width * height,
    `The image declares ${width.toLocaleString('en-US')} × ${height.toLocaleString('en-US')} =`,
  );
  if (isGif(bytes)) {
    checkLimit(limits, 'imageMaxPixels', gifFramePixels(bytes), 'The GIF frames declare');
  }
  return { width, height };
}
