// What the pool's threads run: one function per kind of job, each the same code the packages
// run inline (their tests cover it), behind the input budgets. Runs inside a worker thread:
// a job's modules are imported when it first runs, so a thread that only ever reads CSV files
// never loads jsdom or PDF.js. Errors cross the thread boundary as plain data (errors.ts).
import type { MessagePort } from 'node:worker_threads';
import type { InputLimitName, InputLimits } from '@tandem/contracts';
import type { PageLearned, PageLearnRequest, PageRead, PageReadRequest } from '@tandem/extraction';
import type {
  DocumentForRetrieval,
  DocumentInput,
  ExtractedDocument,
  MainContent,
  PageInput,
} from '@tandem/knowledge/ingestion';
import { serializeError, type SerializedError } from './errors';

/** Each job's input and output. */
export interface Jobs {
  /** An uploaded file's bytes to Markdown (DOCX, PDF with OCR, images, CSV/JSON/YAML/XML…). */
  document: { input: DocumentInput; output: ExtractedDocument };
  /** The same, cut into retrieval chunks in the thread (knowledge uploads and crawled files). */
  documentForRetrieval: { input: DocumentInput; output: DocumentForRetrieval };
  /** An office file checked against the ZIP budgets before it is sent to a converter. */
  inspectArchive: { input: DocumentInput; output: undefined };
  /** A web page's main content (crawls, the extension's page content). */
  mainContent: { input: PageInput; output: MainContent };
  /** An extraction's page: Markdown for the model, or a learned strategy replayed. */
  pageRead: { input: PageReadRequest; output: PageRead };
  /** Replay selectors learned from the model's answer on that page. */
  pageLearn: { input: PageLearnRequest; output: PageLearned };
  /** A full DOM the extension sent, as the bounded digest the model reads. */
  htmlDigest: { input: { html: string }; output: string };
}

export type JobName = keyof Jobs;

export interface JobMessage<N extends JobName = JobName> {
  name: N;
  input: Jobs[N]['input'];
  limits: InputLimits;
  /** Told when the job starts: its time budget counts from then, not from a thread's boot. */
  started?: MessagePort;
}

export type JobReply<N extends JobName = JobName> =
  { ok: true; value: Jobs[N]['output'] } | { ok: false; error: SerializedError };

/**
 * A job: the modules it needs (imported once per thread, before its clock starts) and the work.
 * HTML is counted against its budgets (`checkHtml`) before jsdom builds a DOM of it.
 */
interface Handler<N extends JobName, M> {
  load: () => Promise<M>;
  run: (
    modules: M,
    input: Jobs[N]['input'],
    limits: InputLimits,
  ) => Jobs[N]['output'] | Promise<Jobs[N]['output']>;
}

const knowledge = () => import('@tandem/knowledge/parsers');
const html = () => import('@tandem/markdown/html');
const extraction = async () => ({
  ...(await import('@tandem/extraction/page-reader')),
  ...(await html()),
});

type Knowledge = Awaited<ReturnType<typeof knowledge>>;
type Extraction = Awaited<ReturnType<typeof extraction>>;
type Html = Awaited<ReturnType<typeof html>>;

const HANDLERS = {
  document: {
    load: knowledge,
    run: ({ readDocument }, input, limits) => readDocument(input, limits),
  } satisfies Handler<'document', Knowledge>,
  documentForRetrieval: {
    load: knowledge,
    run: ({ readDocumentForRetrieval }, input, limits) => readDocumentForRetrieval(input, limits),
  } satisfies Handler<'documentForRetrieval', Knowledge>,
  inspectArchive: {
    load: knowledge,
    run: async ({ inspectArchive }, input, limits) => {
      await inspectArchive(input, limits);
      return undefined;
    },
  } satisfies Handler<'inspectArchive', Knowledge>,
  mainContent: {
    load: knowledge,
    run: ({ readMainContent }, input, limits) => readMainContent(input, limits),
  } satisfies Handler<'mainContent', Knowledge>,
  pageRead: {
    load: extraction,
    run: ({ checkHtml, readPage }, input, limits) => {
      checkHtml(input.html, limits);
      return readPage(input);
    },
  } satisfies Handler<'pageRead', Extraction>,
  pageLearn: {
    load: extraction,
    run: ({ checkHtml, learnPage }, input, limits) => {
      checkHtml(input.html, limits);
      return learnPage(input);
    },
  } satisfies Handler<'pageLearn', Extraction>,
  // No budget but its size (the contract caps a DOM at 5 M characters): the digest builds no
  // tree and reads a page nested deeper than browsers allow only to that depth.
  htmlDigest: {
    load: html,
    run: ({ digestHtml }, input) => digestHtml(input.html),
  } satisfies Handler<'htmlDigest', Html>,
};

/** The budget a job's input broke when a recursive parser ran out of stack on it. */
const NESTING: Record<JobName, InputLimitName> = {
  document: 'structuredMaxDepth',
  documentForRetrieval: 'structuredMaxDepth',
  inspectArchive: 'structuredMaxDepth',
  mainContent: 'htmlMaxDepth',
  pageRead: 'htmlMaxDepth',
  pageLearn: 'htmlMaxDepth',
  htmlDigest: 'htmlMaxDepth',
};

/** The worker's entry: runs one job and answers with its value or its error as data. */
export async function runJob(message: JobMessage): Promise<JobReply> {
  try {
    const job = HANDLERS[message.name] as Handler<JobName, unknown>;
    const modules = await job.load();
    message.started?.postMessage('started');
    message.started?.close();
    return { ok: true, value: await job.run(modules, message.input, message.limits) };
  } catch (error) {
    return { ok: false, error: serializeError(error, NESTING[message.name]) };
  }
}
