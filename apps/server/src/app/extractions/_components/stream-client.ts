// Reading a run's server-sent events in the browser. EventSource only does GET, and a run
// starts with a POST, so the response body is read as it arrives: blocks end with a blank line,
// `data:` lines carry the JSON, `:` lines are heartbeats.
export async function* readEvents(response: Response): AsyncGenerator<unknown, void, undefined> {
  const reader = response.body?.getReader();
  if (!reader) return;
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    buffer += decoder.decode(value, { stream: !done });
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const data = buffer
        .slice(0, end)
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n');
      buffer = buffer.slice(end + 2);
      if (data !== '') yield JSON.parse(data) as unknown;
      end = buffer.indexOf('\n\n');
    }
    if (done) return;
  }
}
