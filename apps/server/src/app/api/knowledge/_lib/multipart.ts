// Reads a multipart upload as it arrives, with a hard byte cap. busboy parses the stream chunk
// by chunk: the body was buffered and handed to `Response.formData()` before, which parsed a
// 10 MB upload in one stretch of 100-150 ms on the thread every other request waits for (and
// 25 MB in about 400). The declared Content-Length is checked first (a clear 413 before reading
// anything), then the file is counted as it streams, because a chunked upload declares no
// length and a declared one can lie.
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import busboy from 'busboy';
import { HttpError } from '../../../../server/http-error';

/** Room for the form's boundaries and small fields around the file. */
const FORM_OVERHEAD_BYTES = 64 * 1024;
/** Text fields besides the file, and their size. */
const MAX_FIELDS = 20;
const MAX_FIELD_BYTES = 16 * 1024;

export interface UploadedPart {
  name: string;
  /** The part's declared type; empty when it declared none. */
  type: string;
  bytes: Uint8Array;
}

export interface MultipartForm {
  /** The `file` part; null when the form has none. */
  file: UploadedPart | null;
  /** Text fields by name (the first of a name wins). */
  fields: Record<string, string>;
}

const tooLarge = (limit: number) =>
  new HttpError(
    'PAYLOAD_TOO_LARGE',
    `The file is larger than ${Math.round(limit / 1024 / 1024)} MB, the upload limit.`,
  );

const unparsable = () => new HttpError('BAD_REQUEST', 'The multipart body could not be parsed.');

export function readMultipart(request: Request, fileLimit: number): Promise<MultipartForm> {
  const type = request.headers.get('content-type') ?? '';
  if (!type.toLowerCase().startsWith('multipart/form-data') || !/boundary=/i.test(type)) {
    throw new HttpError('BAD_REQUEST', 'Send the file as multipart/form-data with a `file` field.');
  }
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > fileLimit + FORM_OVERHEAD_BYTES) throw tooLarge(fileLimit);
  if (!request.body) throw unparsable();
  return parse(
    Readable.fromWeb(request.body as WebReadableStream<Uint8Array>),
    type,
    fileLimit,
    declared,
  );
}

/**
 * The file's bytes, gathered as they arrive. With the body's declared length, one buffer of
 * that size is filled chunk by chunk: touching fresh memory costs about 3 ms a MB on our
 * machines, which Buffer.concat at the end paid in one stretch (75 ms for 22 MB) and each
 * chunk's copy now pays in its own small step. The buffer is the file's alone, so the parse
 * pool can take it without a copy.
 */
class FileBytes {
  private readonly whole: Uint8Array | null;
  /** Bytes in `whole`; what did not fit (a body longer than declared) goes to `rest`. */
  private filled = 0;
  private readonly rest: Buffer[] = [];

  constructor(expected: number) {
    this.whole = expected > 0 ? new Uint8Array(expected) : null;
  }

  add(chunk: Buffer): void {
    if (this.whole && this.rest.length === 0 && this.filled + chunk.length <= this.whole.length) {
      this.whole.set(chunk, this.filled);
      this.filled += chunk.length;
    } else {
      this.rest.push(chunk);
    }
  }

  bytes(): Uint8Array {
    const head = this.whole ? this.whole.subarray(0, this.filled) : new Uint8Array(0);
    if (this.rest.length === 0) return head;
    return new Uint8Array(Buffer.concat([head, ...this.rest]));
  }
}

function parse(
  body: Readable,
  type: string,
  fileLimit: number,
  declared: number,
): Promise<MultipartForm> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { 'content-type': type },
        limits: { files: 1, fileSize: fileLimit, fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES },
      });
    } catch {
      reject(unparsable());
      return;
    }
    const form: MultipartForm = { file: null, fields: {} };
    let failed = false;
    const fail = (error: HttpError) => {
      if (failed) return;
      failed = true;
      body.unpipe(parser);
      body.destroy();
      reject(error);
    };
    parser.on('field', (name, value) => {
      if (!Object.hasOwn(form.fields, name)) form.fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (name !== 'file' || form.file !== null) {
        stream.resume();
        return;
      }
      const bytes = new FileBytes(declared);
      stream.on('data', (chunk: Buffer) => bytes.add(chunk));
      stream.on('limit', () => fail(tooLarge(fileLimit)));
      stream.on('end', () => {
        form.file = {
          name: info.filename ?? '',
          type: info.mimeType ?? '',
          bytes: bytes.bytes(),
        };
      });
    });
    parser.on('error', () => fail(unparsable()));
    body.on('error', () => fail(unparsable()));
    parser.on('close', () => {
      if (!failed) resolve(form);
    });
    body.pipe(parser);
  });
}
