// The extension's client for the Tandem server, driven by the contracts' endpoint registry:
// paths, methods and response schemas come from one place shared with the server routes.
import {
  ActiveTaskResponse,
  buildPath,
  CancelTaskResponse,
  endpoints,
  InteractResponse,
  TaskEvent,
  WhoAmIResponse,
  type InteractRequestInput,
} from '@tandem/contracts';
import type { z } from 'zod';
import { ApiError, callServer } from './api-call';
import type { Settings } from './settings';

// Callers meet ApiError through the client, so they import it from here.
export { ApiError };

export interface ApiClient {
  /** One step of the loop; `signal` aborts it (Stop), and it then throws ABORTED. */
  interact(body: InteractRequestInput, signal?: AbortSignal): Promise<InteractResponse>;
  /** Marks the task cancelled on the server (Stop); 200 again when it already was. */
  cancel(taskId: string, signal?: AbortSignal): Promise<CancelTaskResponse>;
  activeTask(sessionId: string, url?: string): Promise<ActiveTaskResponse | null>;
  whoami(): Promise<WhoAmIResponse>;
  /** Every item the task collected, as the server's CSV file. */
  collectedCsv(taskId: string): Promise<Blob>;
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
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.search(/\r?\n\r?\n/)) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '');
      const data = block
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n');
      if (!data) continue; // heartbeats are comments
      let json: unknown;
      try {
        json = JSON.parse(data);
      } catch {
        continue;
      }
      const parsed = TaskEvent.safeParse(json);
      if (parsed.success) {
        onEvent(parsed.data);
        if (parsed.data.event === 'done') {
          await reader.cancel();
          return;
        }
      }
    }
  }
}

export function createApiClient(settings: Settings, fetchFn: typeof fetch = fetch): ApiClient {
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
    async collectedCsv(taskId) {
      const res = await fetchFn(
        `${settings.serverUrl}${buildPath(endpoints.collectedItems, { taskId }, { format: 'csv' })}`,
        { headers: { authorization: `Bearer ${settings.apiKey}` } },
      );
      if (!res.ok) throw new ApiError(res.status, 'HTTP_ERROR', `Download failed (${res.status}).`);
      return res.blob();
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
