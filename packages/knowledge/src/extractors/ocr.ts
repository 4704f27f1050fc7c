import { createRequire } from 'node:module';
import { createWorker, OEM } from 'tesseract.js';
import type { HandlerResult } from './extract';

interface LanguageData {
  code: string;
  gzip: boolean;
  langPath: string;
}

const require = createRequire(import.meta.url);

/** Trained data shipped in an npm package, so OCR never downloads a model at run time. */
const english = (): LanguageData => require('@tesseract.js-data/eng') as LanguageData;

/** Below this mean confidence (0–100) the text is kept but flagged as unreliable. */
const LOW_CONFIDENCE = 60;

/**
 * OCR for images with tesseract.js, offline: the WASM core comes from tesseract.js-core and
 * the English model from @tesseract.js-data/eng. A worker per call keeps no state between
 * imports; it costs about a second to start, which is small next to recognition itself.
 */
export async function ocrImage(bytes: Uint8Array): Promise<HandlerResult> {
  const language = english();
  const worker = await createWorker(language.code, OEM.LSTM_ONLY, {
    langPath: language.langPath,
    gzip: language.gzip,
    cacheMethod: 'none',
  });
  try {
    const { data } = await worker.recognize(
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    );
    const markdown = data.text
      .replace(/[ \t]+\n/g, '\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim();
    const warnings: string[] = [];
    if (!markdown) warnings.push('OCR found no text in the image.');
    else if (data.confidence < LOW_CONFIDENCE) {
      warnings.push(`OCR confidence is low (${Math.round(data.confidence)}%): check the text.`);
    }
    return { markdown, warnings };
  } finally {
    await worker.terminate();
  }
}
