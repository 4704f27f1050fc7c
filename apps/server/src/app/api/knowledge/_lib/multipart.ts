// Reads a multipart upload with a hard byte cap. The declared Content-Length is checked first
// (a clear 413 before reading anything), then the stream is counted as it arrives, because a
// chunked upload declares no length and a declared one can lie.
import { HttpError } from '../../../../server/http-error';

/** Room for the form's boundaries and small fields around the file. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

const tooLarge = (limit: number) =>
  new HttpError(
    'PAYLOAD_TOO_LARGE',
    `The file is larger than ${Math.round(limit / 1024 / 1024)} MB, the upload limit.`,
  );

export async function readMultipart(request: Request, fileLimit: number): Promise<FormData> {
  const type = request.headers.get('content-type') ?? '';
  if (!type.toLowerCase().startsWith('multipart/form-data')) {
    throw new HttpError('BAD_REQUEST', 'Send the file as multipart/form-data with a `file` field.');
  }
  const limit = fileLimit + FORM_OVERHEAD_BYTES;
  if (Number(request.headers.get('content-length') ?? '0') > limit) throw tooLarge(fileLimit);
  const parts: Uint8Array[] = [];
  let size = 0;
  const reader = request.body?.getReader();
  for (;;) {
    const next = await reader?.read();
    if (!next || next.done) break;
    size += next.value.byteLength;
    if (size > limit) {
      await reader?.cancel();
      throw tooLarge(fileLimit);
    }
    parts.push(next.value);
  }
  try {
    return await new Response(Buffer.concat(parts), {
      headers: { 'content-type': type },
    }).formData();
  } catch {
    throw new HttpError('BAD_REQUEST', 'The multipart body could not be parsed.');
  }
}
