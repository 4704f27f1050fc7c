// A small ZIP writer over node:zlib, enough to build the hostile archives a library would refuse
// to write: entries inflating to a gigabyte from a few megabytes, headers that lie about sizes and
// checksums, and names that climb out of the extraction folder (`../../evil.xml`). Large
// entries are deflated as a stream of chunks, so a 1 GiB entry never sits in memory.
import { Readable } from 'node:stream';
import { crc32, createDeflateRaw, deflateRawSync } from 'node:zlib';

export interface ZipEntry {
  /** Written as given, `../` included. */
  name: string;
  /** The entry's content, or a generator of its chunks for entries too big to hold. */
  data: Uint8Array | string | (() => Iterable<Uint8Array>);
  /** Store instead of deflate. */
  stored?: boolean;
  /** Lies the headers tell: the sizes and checksum they declare instead of the real ones. */
  declare?: { uncompressedSize?: number; crc?: number };
}

interface Packed {
  name: Buffer;
  method: number;
  crc: number;
  compressed: Buffer;
  uncompressedSize: number;
}

// 2024-01-01 00:00 in MS-DOS format: fixed, so an archive is byte-for-byte reproducible.
const DOS_TIME = 0;
const DOS_DATE = ((2024 - 1980) << 9) | (1 << 5) | 1;

async function pack(entry: ZipEntry): Promise<Packed> {
  const name = Buffer.from(entry.name, 'utf8');
  if (typeof entry.data !== 'function') {
    const raw = typeof entry.data === 'string' ? Buffer.from(entry.data) : Buffer.from(entry.data);
    return {
      name,
      method: entry.stored ? 0 : 8,
      crc: crc32(raw),
      compressed: entry.stored ? raw : deflateRawSync(raw, { level: 9 }),
      uncompressedSize: raw.length,
    };
  }
  let crc = 0;
  let size = 0;
  const chunks = entry.data;
  const source = Readable.from(
    (function* () {
      for (const chunk of chunks()) {
        crc = crc32(chunk, crc);
        size += chunk.length;
        yield chunk;
      }
    })(),
  );
  const out: Buffer[] = [];
  for await (const piece of source.pipe(createDeflateRaw({ level: 9 }))) out.push(piece as Buffer);
  return { name, method: 8, crc, compressed: Buffer.concat(out), uncompressedSize: size };
}

function localHeader(p: Packed, lie: ZipEntry['declare']): Buffer {
  const h = Buffer.alloc(30);
  h.writeUInt32LE(0x04034b50, 0);
  h.writeUInt16LE(20, 4);
  h.writeUInt16LE(0x0800, 6); // UTF-8 names
  h.writeUInt16LE(p.method, 8);
  h.writeUInt16LE(DOS_TIME, 10);
  h.writeUInt16LE(DOS_DATE, 12);
  h.writeUInt32LE((lie?.crc ?? p.crc) >>> 0, 14);
  h.writeUInt32LE(p.compressed.length, 18);
  h.writeUInt32LE(lie?.uncompressedSize ?? p.uncompressedSize, 22);
  h.writeUInt16LE(p.name.length, 26);
  h.writeUInt16LE(0, 28);
  return Buffer.concat([h, p.name]);
}

function centralHeader(p: Packed, lie: ZipEntry['declare'], offset: number): Buffer {
  const h = Buffer.alloc(46);
  h.writeUInt32LE(0x02014b50, 0);
  h.writeUInt16LE(20, 4);
  h.writeUInt16LE(20, 6);
  h.writeUInt16LE(0x0800, 8);
  h.writeUInt16LE(p.method, 10);
  h.writeUInt16LE(DOS_TIME, 12);
  h.writeUInt16LE(DOS_DATE, 14);
  h.writeUInt32LE((lie?.crc ?? p.crc) >>> 0, 16);
  h.writeUInt32LE(p.compressed.length, 20);
  h.writeUInt32LE(lie?.uncompressedSize ?? p.uncompressedSize, 24);
  h.writeUInt16LE(p.name.length, 28);
  // extra, comment, disk, internal attributes: 0; external attributes: a plain file.
  h.writeUInt32LE(offset, 42);
  return Buffer.concat([h, p.name]);
}

/** The archive: local headers and data, the central directory, its end record. */
export async function zip(entries: ZipEntry[]): Promise<Buffer> {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const packed = await pack(entry);
    const local = localHeader(packed, entry.declare);
    central.push(centralHeader(packed, entry.declare, offset));
    parts.push(local, packed.compressed);
    offset += local.length + packed.compressed.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directory, end]);
}

/** `count` chunks of `chunk`: a large entry's content without holding it. */
export const repeated = (chunk: Uint8Array, count: number): (() => Iterable<Uint8Array>) =>
  function* () {
    for (let i = 0; i < count; i++) yield chunk;
  };
