// Knowledge failures the user can act on, as the contract's error codes: for the knowledge
// routes, and for the upload jobs (knowledge-uploads.ts), which record the code a request
// waiting for them answers with.
import {
  CrawlRefusedError,
  OfficeConversionError,
  ParseError,
  QuotaExceededError,
  UnsupportedFormatError,
} from '@tandem/knowledge/ingestion';
import { HttpError, isError } from './http-error';

/** Runs `work`, turning knowledge errors into HttpErrors (anything else passes unchanged). */
export async function knowledgeErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    // By name too (isError): the built server loads the ingestion package in several chunks.
    if (isError(error, QuotaExceededError, 'QuotaExceededError')) {
      throw new HttpError('QUOTA_EXCEEDED', error.message);
    }
    if (isError(error, UnsupportedFormatError, 'UnsupportedFormatError')) {
      // Say what it is, and what would work instead.
      throw new HttpError(
        'BAD_REQUEST',
        `Tandem cannot read this file (${error.format}). It reads PDF (scans too, by OCR), ` +
          'Word, images, HTML, Markdown, text, CSV, JSON, XML and YAML files.',
      );
    }
    if (isError(error, OfficeConversionError, 'OfficeConversionError')) {
      // Gotenberg down or failing is the server's trouble, not a bad file.
      throw new HttpError('SERVICE_UNAVAILABLE', error.message);
    }
    if (isError(error, ParseError, 'ParseError')) {
      throw new HttpError('BAD_REQUEST', `The file could not be read: ${error.message}`);
    }
    if (isError(error, CrawlRefusedError, 'CrawlRefusedError')) {
      throw new HttpError('BAD_REQUEST', error.message);
    }
    throw error;
  }
}
