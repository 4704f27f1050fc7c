// The extension's client for the Tandem server, driven by the contracts' endpoint registry:
// paths, methods and response schemas come from one place shared with the server routes.
import {
  ActiveTaskResponse,
  buildPath,
  CancelTaskResponse,
  endpoints,
  ErrorResponse,
  InteractResponse,
  PageContentResponse,
  readSse,
  RoutineOfferList,
  TaskEvent,
  TaskExtractionsResponse,
  WhoAmIResponse,
  type ExtractionsFormat,
  type InteractRequestInput,
  type PageContentRequest,
} from '@tandem/contracts';
import type { z } from 'zod';
import { ApiError, callServer, networkError } from './api-call';
import type { Settings } from './settings';

// Callers meet ApiError through the client, so they import it from here.
export { ApiError };

/** How an extraction is downloaded: its data as JSON, or its list as the server's CSV. */
export type ExtractionFormat = z.infer<typeof ExtractionsFormat>;

export interface ApiClient {
  /** One step of the loop; `signal` aborts it (Stop), and it then throws ABORTED. */
  interact(body: InteractRequestInput, signal?: AbortSignal): Promise<InteractResponse>;
  /** Marks the task cancelled on the server (Stop); 200 again when it already was. */
  cancel(taskId: string, signal?: AbortSignal): Promise<CancelTaskResponse>;
  activeTask(sessionId: string, url?: string): Promise<ActiveTaskResponse | null>;
  whoami(): Promise<WhoAmIResponse>;
  /** The tenant's routines the popup offers to run again on `site` (host with its port). */
  routineOffers(site: string): Promise<RoutineOfferList>;
  /** A page's content for the tenant's knowledge (two-phase SPA ingestion), sent with consent. */
  pageContent(body: PageContentRequest): Promise<PageContentResponse>;
  /** Every item the task collected, as the server's CSV file. */
  collectedCsv(taskId: string): Promise<Blob>;
  /**
   * One extraction's data as a file: the server's CSV of its list, or its data merged across
   * pages as pretty-printed JSON (the data alone, not the whole response).
   */
  extractionFile(taskId: string, extractionId: string, format: ExtractionFormat): Promise<Blob>;
  /**
   * Follows the task's server-sent events until `done`, the stream ends or `signal` aborts.
   * fetch rather than EventSource: EventSource cannot send the Authorization header.
   */
  followEvents(
    taskId: string,
    onEvent: (event: TaskEvent) => void,
    signal?: AbortSignal,
  ): Promise<void>;
}

/** Splits an SSE byte stream into events and hands each valid `data:` payload on. */
export async function readEventStream(
  body: ReadableStream<Uint8Array>,
  onEvent: (event: TaskEvent) => void,
): Promise<void> {
  for await (const message of readSse(body)) {
    let json: unknown;
    try {
      json = JSON.parse(message.data);
    } catch {
      continue;
    }
    const parsed = TaskEvent.safeParse(json);
    if (!parsed.success) continue;
    onEvent(parsed.data);
    // Leaving the loop cancels the body: the stream is done.
    if (parsed.data.event === 'done') return;
  }
}

/**
 * The error of a download the server refused: its own words when it sent an ErrorResponse
 * (e.g. why a CSV cannot be made), else the status alone.
 */
async function downloadError(res: Response): Promise<ApiError> {
  const parsed = ErrorResponse.safeParse(await res.json().catch(() => null));
  const reason = parsed.success ? `: ${parsed.data.error.message}` : '.';
  const code = parsed.success ? parsed.data.error.code : 'HTTP_ERROR';
  return new ApiError(res.status, code, `Download failed (${res.status})${reason}`);
}

/** The JSON file of one extraction, from the task's JSON answer filtered to it. */
async function extractionJson(res: Response, extractionId: string): Promise<Blob> {
  const parsed = TaskExtractionsResponse.safeParse(await res.json().catch(() => null));
  if (!parsed.success)
    throw new ApiError(res.status, 'BAD_RESPONSE', 'The server answered with unreadable data.');
  const aggregate = parsed.data.aggregates.find((a) => a.extractionId === extractionId);
  if (!aggregate)
    throw new ApiError(
      res.status,
      'NOT_FOUND',
      `The server has no data for extraction ${extractionId}.`,
    );
  return new Blob([`${JSON.stringify(aggregate.data, null, 2)}\n`], { type: 'application/json' });
}

/** A file download (GET with the key); a refusal or an unreachable server throws ApiError. */
function downloader(settings: Settings, fetchFn: typeof fetch) {
  return async (path: string): Promise<Response> => {
    let res: Response;
    try {
      res = await fetchFn(`${settings.serverUrl}${path}`, {
        headers: { authorization: `Bearer ${settings.apiKey}` },
      });
    } catch (error) {
      throw networkError(settings.serverUrl, error);
    }
    if (!res.ok) throw await downloadError(res);
    return res;
  };
}

export function createApiClient(settings: Settings, fetchFn: typeof fetch = fetch): ApiClient {
  const download = downloader(settings, fetchFn);
  const call = <S extends z.ZodType>(
    method: string,
    path: string,
    schema: S,
    body?: unknown,
    signal?: AbortSignal,
  ) => callServer(settings, fetchFn, { method, path, schema, body, ...(signal ? { signal } : {}) });

  return {
    interact: (body, signal) =>
      call(
        endpoints.interact.method,
        buildPath(endpoints.interact),
        InteractResponse,
        body,
        signal,
      ),
    cancel: (taskId, signal) =>
      call(
        endpoints.cancelTask.method,
        buildPath(endpoints.cancelTask, { taskId }),
        CancelTaskResponse,
        undefined,
        signal,
      ),
    async activeTask(sessionId, url) {
      try {
        return await call(
          'GET',
          buildPath(endpoints.activeTask, { sessionId }, url ? { url } : {}),
          ActiveTaskResponse,
        );
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
    whoami: () => call('GET', buildPath(endpoints.whoami), WhoAmIResponse),
    routineOffers: (site) =>
      call(
        endpoints.routineOffers.method,
        buildPath(endpoints.routineOffers, {}, { site }),
        RoutineOfferList,
      ),
    pageContent: (body) =>
      call(
        endpoints.knowledgePageContent.method,
        buildPath(endpoints.knowledgePageContent),
        PageContentResponse,
        body,
      ),
    async collectedCsv(taskId) {
      const res = await download(
        buildPath(endpoints.collectedItems, { taskId }, { format: 'csv' }),
      );
      return res.blob();
    },
    async extractionFile(taskId, extractionId, format) {
      const path = buildPath(endpoints.taskExtractions, { taskId }, { format, extractionId });
      const res = await download(path);
      return format === 'csv' ? res.blob() : extractionJson(res, extractionId);
    },
    async followEvents(taskId, onEvent, signal) {
      const res = await fetchFn(
        `${settings.serverUrl}${buildPath(endpoints.taskEvents, { taskId })}`,
        {
          headers: { authorization: `Bearer ${settings.apiKey}`, accept: 'text/event-stream' },
          ...(signal ? { signal } : {}),
        },
      );
      if (!res.ok || !res.body)
        throw new ApiError(res.status, 'HTTP_ERROR', `Live events unavailable (${res.status}).`);
      await readEventStream(res.body, onEvent);
    },
  };
}
