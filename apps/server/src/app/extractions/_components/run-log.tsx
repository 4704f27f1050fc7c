'use client';
// The live view of a run: what the agent says, each tool it calls (in words), and the end.
import { toolLabel } from './field-rows';

export type LogEntry =
  | { kind: 'document'; title: string; pages: number; warnings: string[] }
  | { kind: 'user'; text: string }
  | { kind: 'text'; text: string }
  | { kind: 'tool'; tool: string; input: unknown }
  | { kind: 'complete'; cost: number };

const WRITES = new Set([
  'identify_document',
  'extract_fields',
  'update_field',
  'remove_field',
  'complete_extraction',
]);

function Entry({ entry }: { entry: LogEntry }) {
  switch (entry.kind) {
    case 'document':
      return (
        <li className="document">
          Read <b>{entry.title}</b> ({entry.pages} page{entry.pages === 1 ? '' : 's'})
          {entry.warnings.map((w) => (
            <div key={w} className="muted small">
              {w}
            </div>
          ))}
        </li>
      );
    case 'user':
      return <li className="user">You: {entry.text}</li>;
    case 'text':
      return <li className="say">{entry.text}</li>;
    case 'tool':
      return (
        <li className={`tool${WRITES.has(entry.tool) ? ' write' : ''}`} data-tool={entry.tool}>
          {toolLabel(entry.tool, entry.input)}
        </li>
      );
    case 'complete':
      return <li className="done">Finished · ${entry.cost.toFixed(4)}</li>;
  }
}

export function RunLog({ entries, busy }: { entries: LogEntry[]; busy: string | null }) {
  if (entries.length === 0 && busy === null) return null;
  return (
    <section aria-label="Agent" className="panel log">
      <h2>Agent</h2>
      <ol aria-live="polite">
        {entries.map((entry, index) => (
          <Entry key={index} entry={entry} />
        ))}
      </ol>
      {busy ? (
        <p className="busy" role="status">
          {busy}
        </p>
      ) : null}
    </section>
  );
}
