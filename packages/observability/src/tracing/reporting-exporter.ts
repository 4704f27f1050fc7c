// Wraps the OTLP exporter so a failed export reaches our logger, rate-limited. Without it a
// LangFuse outage is invisible: the batch processor hands failures to OpenTelemetry's global
// error handler, which logs through the diag logger nobody registers.
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { describeError, type LogWriter, type RateLimitedLog } from '../log';

export class ReportingSpanExporter implements SpanExporter {
  private failing = false;

  constructor(
    private readonly inner: SpanExporter,
    private readonly report: RateLimitedLog,
    private readonly log: LogWriter,
    private readonly endpoint: string,
  ) {}

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    try {
      this.inner.export(spans, (result) => {
        if (result.code === ExportResultCode.SUCCESS) {
          if (this.failing) {
            this.failing = false;
            this.log.info('LangFuse span export recovered', { endpoint: this.endpoint });
          }
        } else {
          this.failing = true;
          this.report.report(
            'langfuse-export',
            'warn',
            'LangFuse span export failed; spans dropped',
            {
              endpoint: this.endpoint,
              spans: spans.length,
              error: result.error ? describeError(result.error) : 'unknown',
            },
          );
        }
        resultCallback(result);
      });
    } catch (error) {
      this.report.report('langfuse-export', 'warn', 'LangFuse span export failed; spans dropped', {
        endpoint: this.endpoint,
        error: describeError(error),
      });
      resultCallback({ code: ExportResultCode.FAILED, error: error as Error });
    }
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}
