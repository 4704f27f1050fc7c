import type { FormatHandler } from './extract';

/** The configured model's speech-to-text, passed in so this package never constructs a model. */
export type Transcribe = (media: { bytes: Uint8Array; mimeType: string }) => Promise<string>;

/**
 * Adapts a model's transcription to the audio and video handlers of extractDocument. When the
 * configured model cannot transcribe, pass no handler: extractDocument then fails with an
 * error that says so rather than importing an empty document.
 */
export function transcriptionHandlers(transcribe: Transcribe): {
  audio: FormatHandler;
  video: FormatHandler;
} {
  const handler: FormatHandler = async (bytes, detected) => {
    const transcript = (await transcribe({ bytes, mimeType: detected.mimeType })).trim();
    return {
      markdown: transcript,
      warnings: transcript ? [] : [`The transcription of this ${detected.kind} file is empty.`],
    };
  };
  return { audio: handler, video: handler };
}
