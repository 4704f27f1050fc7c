// Images whose headers promise more than their bytes hold. A decoder that believes the header
// allocates width × height × channels before it reads a pixel: 100000 × 100000 RGB is 30 GB.
import { crc32, deflateSync } from 'node:zlib';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** An RGB PNG declaring `width` × `height` with a short IDAT (a few scanlines' worth). */
export function pngBomb(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const idat = deflateSync(Buffer.alloc(64 * 1024));
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', idat),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The PNG signature and eight bytes of nothing: a file type's magic without a file. */
export const corruptPng = (): Buffer =>
  Buffer.concat([PNG_SIGNATURE, Buffer.from([0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])]);

/** A GIF whose logical screen and only frame are 65535 × 65535, with one LZW block. */
export function gifBomb(): Buffer {
  const header = Buffer.from('GIF89a', 'ascii');
  const screen = Buffer.alloc(7);
  screen.writeUInt16LE(65535, 0);
  screen.writeUInt16LE(65535, 2);
  screen[4] = 0x80; // a global colour table of 2 entries
  const palette = Buffer.from([0, 0, 0, 255, 255, 255]);
  const descriptor = Buffer.alloc(10);
  descriptor[0] = 0x2c;
  descriptor.writeUInt16LE(65535, 5);
  descriptor.writeUInt16LE(65535, 7);
  // LZW minimum code size 2, one sub-block (clear code, end code), block terminator, trailer.
  const data = Buffer.from([0x02, 0x02, 0x4c, 0x01, 0x00, 0x3b]);
  return Buffer.concat([header, screen, palette, descriptor, data]);
}
