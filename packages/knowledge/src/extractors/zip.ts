import {
  describeLimit,
  formatAmount,
  InputTooComplexError,
  type InputLimits,
} from '@tandem/contracts';
import { zipSync, type Zippable } from 'fflate';
import type { Readable } from 'node:stream';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { ParseError } from './errors';

const MB = 1024 * 1024;

/** What a ZIP-based file may unpack to: the smaller of the size and the ratio budgets. */
export class InflateBudget {
  private inflated = 0;
  constructor(
    private readonly limits: InputLimits,
    private readonly fileSize: number,
  ) {}

  /** Declared sizes are checked first: refusing a 1 GiB claim costs nothing. */
  checkDeclared(entries: readonly Entry[]): void {
    const declared = entries.reduce((sum, entry) => sum + entry.uncompressedSize, 0);
    this.check(declared, 'declares it unpacks to');
  }

  add(bytes: number): void {
    this.inflated += bytes;
    this.check(this.inflated, 'unpacks to at least');
  }

  private check(total: number, verb: string): void {
    const { zipMaxUncompressedMb, zipMaxRatio } = this.limits;
    if (total > zipMaxUncompressedMb * MB) {
      throw new InputTooComplexError(
        'zipMaxUncompressedMb',
        `The file ${verb} ${formatAmount('zipMaxUncompressedMb', total / MB)}; the limit is ${describeLimit('zipMaxUncompressedMb', zipMaxUncompressedMb)}.`,
      );
    }
    const ratio = total / Math.max(1, this.fileSize);
    if (ratio > zipMaxRatio) {
      throw new InputTooComplexError(
        'zipMaxRatio',
        `The file ${verb} ${formatAmount('zipMaxRatio', ratio)} its own size; the limit is ${describeLimit('zipMaxRatio', zipMaxRatio)}.`,
      );
    }
  }
}

/** yauzl's own refusals, in words that name no entry (an entry name is attacker-chosen text). */
function zipError(error: unknown, format: string): Error {
  if (error instanceof InputTooComplexError || error instanceof ParseError) return error;
  const message = error instanceof Error ? error.message : '';
  if (/absolute path|invalid relative path|invalid characters in fileName/.test(message)) {
    return new ParseError(
      format,
      'the archive has an entry whose name points outside it (an absolute path or "..").',
    );
  }
  if (/encrypted/.test(message)) return new ParseError(format, 'the archive is encrypted.');
  if (/too many bytes|not enough bytes|size mismatch/.test(message)) {
    return new ParseError(format, 'an entry unpacks to a size other than the one it declares.');
  }
  return new ParseError(format, 'the archive is damaged or is not a valid ZIP file.');
}

async function listEntries(zip: ZipFile): Promise<Entry[]> {
  const entries: Entry[] = [];
  for await (const entry of zip.eachEntry()) entries.push(entry);
  return entries;
}

/** Inflates one entry, counting every byte as it comes out of zlib, so a lying header costs nothing. */
async function inflateEntry(
  zip: ZipFile,
  entry: Entry,
  budget: InflateBudget,
  keep: boolean,
): Promise<Uint8Array> {
  const stream: Readable = await zip.openReadStreamPromise(entry);
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      budget.add(chunk.length);
      if (keep) chunks.push(chunk);
    }
  } finally {
    stream.destroy();
  }
  return keep ? new Uint8Array(Buffer.concat(chunks)) : new Uint8Array(0);
}

export interface UnzippedEntry {
  name: string;
  data: Uint8Array;
}

/**
 * Reads a ZIP-based file as a stream of entries within the file's budgets
 * (ZIP_MAX_UNCOMPRESSED_MB, ZIP_MAX_RATIO): refused as InputTooComplexError as soon as the
 * bytes actually inflated pass either. yauzl refuses entries whose name is absolute or climbs
 * out with "..", and entries whose inflated size differs from the size they declare.
 * `keep` says which entries' bytes are wanted; the others are inflated, counted and dropped.
 */
export async function unzipWithinBudget(
  bytes: Uint8Array,
  limits: InputLimits,
  keep: (name: string) => boolean,
  format: string,
): Promise<UnzippedEntry[]> {
  const budget = new InflateBudget(limits, bytes.byteLength);
  let zip: ZipFile | undefined;
  try {
    zip = await yauzl.fromBufferPromise(
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      { lazyEntries: true, autoClose: false, validateEntrySizes: true, decodeStrings: true },
    );
    const entries = (await listEntries(zip)).filter((entry) => !entry.fileName.endsWith('/'));
    budget.checkDeclared(entries);
    const files: UnzippedEntry[] = [];
    for (const entry of entries) {
      const wanted = keep(entry.fileName);
      files.push({ name: entry.fileName, data: await inflateEntry(zip, entry, budget, wanted) });
    }
    return files;
  } catch (error) {
    throw zipError(error, format);
  } finally {
    zip?.close();
  }
}

/**
 * A new archive of the entries read, stored without compression. The reader downstream
 * (mammoth, through JSZip) then sees exactly the bytes that were counted: it finds entries
 * its own way (JSZip takes the last end-of-directory signature, yauzl the last one whose
 * comment length fits), so the original archive could show it different contents.
 */
export function storedZip(files: readonly UnzippedEntry[]): Uint8Array {
  const tree: Zippable = Object.create(null) as Zippable;
  for (const file of files) tree[file.name] = [file.data, { level: 0 }];
  return zipSync(tree);
}
