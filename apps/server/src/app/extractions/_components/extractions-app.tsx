'use client';
// The /extractions page (issue 19): upload a document, watch the agent work live, read the
// fields with their confidences (low ones highlighted), correct them in plain words, download
// them as JSON. It calls the page's own routes (/extractions/api/…), which forward to the /api
// routes with the key from the sign-in cookie.
import {
  DocumentExtractionDetail,
  DocumentExtractionList,
  DocumentList,
  ErrorResponse,
  ExtractionStreamEvent,
  UploadDocumentAccepted,
  UploadDocumentResponse,
  type DocumentExtractionView,
  type DocumentView,
} from '@tandem/contracts';
import { useCallback, useState, type FormEvent } from 'react';
import { ExtractionPanel } from './extraction-panel';
import { RunLog, type LogEntry } from './run-log';
import { readEvents } from './stream-client';

const API = '/extractions/api';
/** Times a run's stream is followed again after it dropped before the run's end. */
const FOLLOW_RECONNECTS = 3;
/** How often a document still being read (an upload answered 202, a retry) is read again. */
const DOCUMENT_POLL_MS = 2_000;

async function errorOf(response: Response): Promise<string> {
  const parsed = ErrorResponse.safeParse(await response.json().catch(() => null));
  return parsed.success ? parsed.data.error.message : `The server answered ${response.status}.`;
}

const titlesOf = (documents: DocumentView[]) =>
  Object.fromEntries(documents.map((d) => [d.id, d.title]));

/** The document once it is no longer being read (its upload job ran on some server). */
async function whenRead(document: DocumentView): Promise<DocumentView> {
  let current = document;
  while (current.status === 'processing') {
    await new Promise((resolve) => setTimeout(resolve, DOCUMENT_POLL_MS));
    const response = await fetch(`${API}/documents/${encodeURIComponent(current.id)}`);
    if (!response.ok) throw new Error(await errorOf(response));
    current = UploadDocumentResponse.parse(await response.json()).document;
  }
  if (current.status === 'failed') {
    throw new Error(`${current.fileName} could not be read: ${current.error ?? 'unknown error'}`);
  }
  return current;
}

export function ExtractionsApp({
  initial,
  documents,
  modelConfigured,
}: {
  initial: DocumentExtractionView[];
  documents: DocumentView[];
  modelConfigured: boolean;
}) {
  const [extractions, setExtractions] = useState(initial);
  const [docs, setDocs] = useState(documents);
  const titles = titlesOf(docs);
  const [selected, setSelected] = useState<DocumentExtractionDetail | null>(null);
  const [log, setLog] = useState<LogEntry[]>([]);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const refreshList = useCallback(async () => {
    const [list, documentList] = await Promise.all([
      fetch(`${API}/extractions?limit=50`),
      fetch(`${API}/documents`),
    ]);
    if (list.ok) setExtractions(DocumentExtractionList.parse(await list.json()).extractions);
    if (documentList.ok) setDocs(DocumentList.parse(await documentList.json()).documents);
  }, []);

  const open = useCallback(async (id: string) => {
    const response = await fetch(`${API}/extractions/${encodeURIComponent(id)}`);
    if (!response.ok) {
      setError(await errorOf(response));
      return;
    }
    setSelected(DocumentExtractionDetail.parse(await response.json()));
  }, []);

  /**
   * Streams a run into the log; opens its extraction when it completes. A stream that ends
   * without its `complete` (the connection dropped; the run goes on on the server) is followed
   * again from the last write it showed, a few times.
   */
  const follow = useCallback(
    async (response: Response, extractionId?: string) => {
      if (!response.ok) throw new Error(await errorOf(response));
      const runId = extractionId ?? response.headers.get('tandem-extraction-id');
      let id: string | null = null;
      let lastEventId: string | undefined;
      let stream = response;
      for (let reconnects = 0; ; reconnects += 1) {
        for await (const { id: seen, data: raw } of readEvents(stream)) {
          lastEventId = seen ?? lastEventId;
          const event = ExtractionStreamEvent.safeParse(raw);
          if (!event.success) continue;
          const data = event.data;
          if ('complete' in data) {
            id = data.extraction_id;
            setLog((entries) => [...entries, { kind: 'complete', cost: data.cost }]);
          } else if ('tool' in data) {
            setLog((entries) => [...entries, { kind: 'tool', tool: data.tool, input: data.input }]);
          } else {
            setLog((entries) => [...entries, { kind: 'text', text: data.text }]);
          }
        }
        if (id || !runId || reconnects >= FOLLOW_RECONNECTS) break;
        const again = await fetch(`${API}/extractions/${encodeURIComponent(runId)}/events`, {
          headers: lastEventId ? { 'last-event-id': lastEventId } : {},
        }).catch(() => null);
        if (!again?.ok) break;
        stream = again;
      }
      if (id) await open(id);
      await refreshList();
    },
    [open, refreshList],
  );

  const run = useCallback(async (label: string, work: () => Promise<void>) => {
    setBusy(label);
    setError(null);
    try {
      await work();
    } catch (cause) {
      setError(cause instanceof Error ? cause.message : String(cause));
    } finally {
      setBusy(null);
    }
  }, []);

  const extract = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const file = form.get('file');
    const instructions = String(form.get('instructions') ?? '').trim();
    if (!(file instanceof File) || file.size === 0) {
      setError('Choose a file to extract.');
      return;
    }
    void run('Reading the file…', async () => {
      setSelected(null);
      setLog([]);
      const upload = new FormData();
      upload.set('file', file);
      const uploaded = await fetch(`${API}/documents`, { method: 'POST', body: upload });
      if (!uploaded.ok) {
        // A failed document is listed with its reason (and Retry when a retry may mend it).
        void refreshList();
        throw new Error(await errorOf(uploaded));
      }
      const body: unknown = await uploaded.json();
      // 202: still being read by a job after the server's wait; follow it until it is read.
      const accepted = UploadDocumentAccepted.safeParse(body);
      if (accepted.success) {
        setBusy('Still reading the file…');
        void refreshList();
      }
      const document = await whenRead(
        accepted.success ? accepted.data.document : UploadDocumentResponse.parse(body).document,
      );
      setLog([
        {
          kind: 'document',
          title: document.title,
          pages: document.pageCount,
          warnings: document.warnings,
        },
      ]);
      setBusy('The agent is working…');
      await follow(
        await fetch(`${API}/extractions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            documentId: document.id,
            ...(instructions ? { instructions } : {}),
          }),
        }),
      );
    });
  };

  const correct = (message: string) =>
    run('The agent is correcting…', async () => {
      if (!selected) return;
      setLog([{ kind: 'user', text: message }]);
      await follow(
        await fetch(`${API}/extractions/${encodeURIComponent(selected.id)}/correct`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ message }),
        }),
        selected.id,
      );
    });

  const retry = () =>
    run('The agent is finishing the extraction…', async () => {
      if (!selected) return;
      setLog([]);
      await follow(
        await fetch(`${API}/extractions/${encodeURIComponent(selected.id)}/retry`, {
          method: 'POST',
        }),
        selected.id,
      );
    });

  const retryDocument = (id: string) =>
    run('Reading the file again…', async () => {
      const response = await fetch(`${API}/documents/${encodeURIComponent(id)}/retry`, {
        method: 'POST',
      });
      if (!response.ok) throw new Error(await errorOf(response));
      await refreshList();
      try {
        await whenRead(UploadDocumentResponse.parse(await response.json()).document);
      } finally {
        await refreshList();
      }
    });

  // Documents not read (yet): being read by a job, or failed with the reason.
  const unread = docs.filter((d) => d.status !== 'ready');

  return (
    <div className="docs">
      <aside>
        <form aria-label="New extraction" className="panel" onSubmit={extract}>
          <h2>New extraction</h2>
          <label>
            Document
            <input name="file" type="file" aria-label="Document" disabled={busy !== null} />
          </label>
          <label>
            <span>
              Instructions <span className="muted">(optional)</span>
            </span>
            <textarea
              name="instructions"
              rows={2}
              placeholder="e.g. only the totals"
              disabled={busy !== null}
            />
          </label>
          <button type="submit" disabled={busy !== null || !modelConfigured}>
            Extract
          </button>
          {!modelConfigured ? (
            <p className="muted">
              No language model is configured: set GEMINI_API_KEY (or LLM_BASE_URL + LLM_MODEL) and
              restart the server.
            </p>
          ) : null}
        </form>
        {unread.length > 0 ? (
          <section aria-label="Documents not read" className="panel">
            <h2>Documents not read</h2>
            <ul className="list">
              {unread.map((d) => (
                <li key={d.id}>
                  <strong>{d.fileName}</strong>
                  <div className="muted small">
                    <span className={`badge ${d.status}`}>
                      {d.status === 'processing' ? 'being read' : 'failed'}
                    </span>{' '}
                    · {new Date(d.createdAt).toLocaleString()}
                  </div>
                  {d.error ? <p className="error small">{d.error}</p> : null}
                  {d.retryable ? (
                    <button
                      type="button"
                      className="secondary"
                      disabled={busy !== null}
                      onClick={() => void retryDocument(d.id)}
                    >
                      Retry
                    </button>
                  ) : null}
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        <nav aria-label="Your extractions" className="panel">
          <h2>Your extractions</h2>
          {extractions.length === 0 ? <p className="muted">None yet.</p> : null}
          <ul className="list">
            {extractions.map((x) => (
              <li key={x.id}>
                <button
                  type="button"
                  className={`link${selected?.id === x.id ? ' current' : ''}`}
                  onClick={() => void open(x.id)}
                >
                  {titles[x.documentId] ?? 'Document'}
                </button>
                <div className="muted small">
                  {x.documentType?.replace(/_/g, ' ') ?? 'not identified'} ·{' '}
                  <span className={`badge ${x.status}`}>{x.status.replace('_', ' ')}</span> ·{' '}
                  {new Date(x.createdAt).toLocaleString()}
                </div>
              </li>
            ))}
          </ul>
        </nav>
      </aside>
      <section className="main">
        {error ? (
          <p className="error" role="alert">
            {error}
          </p>
        ) : null}
        <RunLog entries={log} busy={busy} />
        {selected ? (
          <ExtractionPanel
            extraction={selected}
            busy={busy !== null}
            modelConfigured={modelConfigured}
            onCorrect={(message) => void correct(message)}
            onRetry={() => void retry()}
          />
        ) : log.length === 0 ? (
          <p className="muted intro">
            Upload an invoice, a claim form or a lab report (PDF, Word, an image or a scan): the
            agent reads it, saves the fields it finds with how sure it is of each, and you can
            correct them in plain words.
          </p>
        ) : null}
      </section>
    </div>
  );
}
