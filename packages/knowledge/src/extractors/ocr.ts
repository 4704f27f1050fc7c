import { DEFAULT_INPUT_LIMITS, describeLimit, type InputLimits } from '@tandem/contracts';
import { createRequire } from 'node:module';
import type { Worker as ThreadWorker } from 'node:worker_threads';
import { createWorker, OEM, type Worker } from 'tesseract.js';
import { trimLineEnds } from './decode-text';
import type { HandlerResult } from './extract';
import { checkImageHeader } from './image-header';
import { scaleImageForOcr } from './ocr-image';

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

export interface OcrText {
  text: string;
  confidence: number;
}

/** The thread tesseract.js runs in: its `worker` field, not in its types. */
const threadOf = (worker: Worker): ThreadWorker | undefined =>
  (worker as unknown as { worker?: ThreadWorker | null }).worker ?? undefined;

/**
 * One tesseract.js worker (a thread with the WASM engine), used for one document's images and
 * ended by `close` in a finally. tesseract.js throws a job's failure out of its message handler
 * unless an errorHandler is given, and a thread's crash is an 'error' event that no one listens
 * to: either would be an uncaughtException that takes the server down. Here both reach the
 * caller's promise instead.
 */
export class OcrEngine {
  private failure: Promise<never>;
  private fail: (error: Error) => void = () => undefined;

  private constructor(private worker: Worker | undefined) {
    this.failure = new Promise<never>((_, reject) => {
      this.fail = reject;
    });
    this.failure.catch(() => undefined);
    const thread = worker && threadOf(worker);
    thread?.on('error', (error) => this.fail(error));
    thread?.on('exit', () => this.fail(new Error('The OCR worker stopped.')));
  }

  static async start(): Promise<OcrEngine> {
    const language = english();
    const worker = await createWorker(language.code, OEM.LSTM_ONLY, {
      langPath: language.langPath,
      gzip: language.gzip,
      cacheMethod: 'none',
      // Failures are rejections of the job's promise; this only keeps them from being thrown.
      errorHandler: () => undefined,
    });
    return new OcrEngine(worker);
  }

  /**
   * The text of one encoded image, or undefined when `deadline` (ms since the epoch) passes
   * first: the worker is then ended, which is the only way to stop a recognition under way.
   */
  async read(image: Uint8Array, deadline: number): Promise<OcrText | undefined> {
    const worker = this.worker;
    if (!worker) return undefined;
    const job = worker.recognize(Buffer.from(image.buffer, image.byteOffset, image.byteLength));
    job.catch(() => undefined); // settled by the race below, or left behind after a timeout
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(resolve, Math.max(0, deadline - Date.now()), undefined);
    });
    try {
      const result = await Promise.race([job, this.failure, timeout]);
      if (!result) {
        await this.close();
        return undefined;
      }
      return { text: tidyOcrText(result.data.text), confidence: result.data.confidence };
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate().catch(() => undefined);
  }
}

const tidyOcrText = (text: string): string =>
  trimLineEnds(text)
    .replace(/\n{3,}/g, '\n\n')
    .trim();

/** The warnings OCR text comes with: none found, or a low mean confidence. */
export function ocrWarnings({ text, confidence }: OcrText): string[] {
  if (!text) return ['OCR found no text in the image.'];
  if (confidence < LOW_CONFIDENCE) {
    return [`OCR confidence is low (${Math.round(confidence)}%): check the text.`];
  }
  return [];
}

export const ocrTimeWarning = (limits: InputLimits, what: string): string =>
  `OCR stopped after ${describeLimit('ocrMaxSeconds', limits.ocrMaxSeconds)}: ${what}.`;

/**
 * OCR for images with tesseract.js, offline: the WASM core comes from tesseract.js-core and
 * the English model from @tesseract.js-data/eng. A worker per call keeps no state between
 * imports; it costs about a second to start, which is small next to recognition itself.
 * The header is checked first (IMAGE_MAX_PIXELS); an image larger than PDF_MAX_PAGE_PIXELS is
 * scaled down before OCR, and recognition stops at OCR_MAX_SECONDS.
 */
export async function ocrImage(
  bytes: Uint8Array,
  { limits = DEFAULT_INPUT_LIMITS }: { limits?: InputLimits } = {},
): Promise<HandlerResult> {
  const dimensions = checkImageHeader(bytes, limits);
  const deadline = Date.now() + limits.ocrMaxSeconds * 1000;
  const scaled = await scaleImageForOcr(bytes, dimensions, limits);
  const engine = await OcrEngine.start();
  try {
    const result = await engine.read(scaled.image, deadline);
    if (!result) {
      return {
        markdown: '',
        warnings: [...scaled.warnings, ocrTimeWarning(limits, 'no text was read')],
      };
    }
    return { markdown: result.text, warnings: [...scaled.warnings, ...ocrWarnings(result)] };
  } finally {
    await engine.close();
  }
}
