// The LangFuse stand-in for the benchmark, in its own process as a real LangFuse would be, so
// decoding and holding the exported spans does not count as Tandem's overhead (CPU or heap).
// Tells the parent its URL, then the number of spans received when asked.
import { startLangfuseCaptureServer } from '@tandem/observability/testing';

const capture = await startLangfuseCaptureServer();
let dropped = 0;
// Only the count matters here; keep memory flat over tens of thousands of large spans.
setInterval(() => {
  dropped += capture.spans.length;
  capture.spans.length = 0;
}, 500).unref();
process.on('message', (message: unknown) => {
  if (message === 'count') process.send?.({ spans: dropped + capture.spans.length });
  if (message === 'stop') void capture.close().then(() => process.exit(0));
});
process.send?.({ baseUrl: capture.baseUrl });
