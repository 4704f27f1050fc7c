// Reading a run's server-sent events in the browser. EventSource only does GET, and a run
// starts with a POST, so the response body is read as it arrives (readSse, the one SSE reader
// every client of ours uses).
import { readSse } from '@tandem/contracts';

/** Each event's data, with the last id seen: a write's history seq, where a reconnect resumes. */
export async function* readEvents(
  response: Response,
): AsyncGenerator<{ id: string | undefined; data: unknown }, void, undefined> {
  if (!response.body) return;
  for await (const message of readSse(response.body))
    yield { id: message.id, data: JSON.parse(message.data) as unknown };
}
