'use client';
// One extraction: its fields with confidences (low ones highlighted), the correction box, a
// failed run's reason and its Retry, the JSON download, and the history of every tool write.
import type { DocumentExtractionDetail } from '@tandem/contracts';
import { useState, type FormEvent } from 'react';
import { fieldRows, LOW_CONFIDENCE, showValue } from './field-rows';

function download(extraction: DocumentExtractionDetail): void {
  const data = {
    id: extraction.id,
    document: extraction.document
      ? { id: extraction.document.id, fileName: extraction.document.fileName }
      : null,
    documentType: extraction.documentType,
    status: extraction.status,
    fields: extraction.fields,
    confidences: extraction.confidences,
  };
  const url = URL.createObjectURL(
    new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }),
  );
  const link = document.createElement('a');
  link.href = url;
  link.download = `extraction-${extraction.id}.json`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export function ExtractionPanel({
  extraction,
  busy,
  modelConfigured,
  onCorrect,
  onRetry,
}: {
  extraction: DocumentExtractionDetail;
  busy: boolean;
  /** Without a model a retry can only fail: the button says so instead. */
  modelConfigured: boolean;
  onCorrect: (message: string) => void;
  /** Runs a failed extraction again (POST …/retry), keeping the fields saved so far. */
  onRetry: () => void;
}) {
  const [message, setMessage] = useState('');
  const rows = fieldRows(extraction.fields, extraction.confidences);
  const low = rows.filter((row) => row.low).length;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (message.trim() === '') return;
    onCorrect(message.trim());
    setMessage('');
  };
  return (
    <section aria-label="Extraction" className="panel extraction" data-status={extraction.status}>
      <header className="extraction-head">
        <div>
          <h2>{extraction.document?.title ?? 'Document'}</h2>
          <div className="muted">
            {extraction.documentType?.replace(/_/g, ' ') ?? 'type not identified'} ·{' '}
            <span className={`badge ${extraction.status}`}>
              {extraction.status.replace('_', ' ')}
            </span>{' '}
            · {rows.length} values · ${extraction.cost.toFixed(4)}
          </div>
        </div>
        <button type="button" className="secondary" onClick={() => download(extraction)}>
          Download JSON
        </button>
      </header>
      {extraction.error ? (
        <p className="error" role="alert">
          {extraction.error}
        </p>
      ) : null}
      {extraction.status === 'failed' ? (
        <p className="retry">
          <button type="button" onClick={onRetry} disabled={busy || !modelConfigured}>
            Retry
          </button>
          <span className="muted small">
            {modelConfigured
              ? 'The agent keeps what was saved and finishes the rest.'
              : 'Retrying needs a language model (see New extraction).'}
          </span>
        </p>
      ) : null}
      {low > 0 ? (
        <p className="warn">
          {low === 1 ? '1 value' : `${low} values`} below {Math.round(LOW_CONFIDENCE * 100)}%
          confidence: check {low === 1 ? 'it' : 'them'} against the document.
        </p>
      ) : null}
      <table aria-label="Fields">
        <thead>
          <tr>
            <th>Field</th>
            <th>Value</th>
            <th className="num">Confidence</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr
              key={row.path}
              className={row.low ? 'low' : undefined}
              data-low={row.low ? 'true' : undefined}
            >
              <td>
                <code>{row.path}</code>
              </td>
              <td>{showValue(row.value)}</td>
              <td className="num">
                {row.confidence === null ? '—' : `${Math.round(row.confidence * 100)}%`}
                {row.low ? <span className="badge low-badge">low</span> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <form aria-label="Correct" className="correct" onSubmit={submit}>
        <label htmlFor="correction">Something wrong? Say it in plain words.</label>
        <div className="row">
          <input
            id="correction"
            value={message}
            onChange={(event) => setMessage(event.target.value)}
            placeholder="e.g. the total is 1,240.50, not 1,204.50"
            disabled={busy}
          />
          <button type="submit" disabled={busy || message.trim() === ''}>
            Send correction
          </button>
        </div>
      </form>
      {extraction.history.length > 0 ? (
        <details>
          <summary>History ({extraction.history.length} writes)</summary>
          <ol className="history">
            {extraction.history.map((write) => (
              <li key={write.seq}>
                <code>{write.tool}</code>{' '}
                <span className="muted small">{new Date(write.createdAt).toLocaleString()}</span>
              </li>
            ))}
          </ol>
        </details>
      ) : null}
    </section>
  );
}
