// Reading a run's server-sent events in the browser. EventSource only does GET, and a run
// starts with a POST, so the response body is read as it arrives (readSse, the one SSE reader
// every client of ours uses).
import { readSse } from '@tandem/contracts';

export async function* readEvents(response: Response): AsyncGenerator<unknown, void, undefined> {
  if (!response.body) return;
  for await (const message of readSse(response.body)) yield JSON.parse(message.data) as unknown;
}
