// Ids for the path parameters: resources a tenant made through the API (a document and its
// extraction, a stack, a task and its session, a knowledge document, a crawl job). The owners'
// ids make valid paths; tenant B's, sent with another tenant's key, must answer 404 and no data.
import { jsonRequest, send, uploadRequest, type RawRequest } from '../http';
import type { HostileStack, Tenant } from '../stack';
import { nextBody } from '../../soak/workload';

export interface Resources {
  /** By path parameter name; a kind the tenant could not make is missing. */
  ids: Partial<
    Record<'sessionId' | 'taskId' | 'extractionId' | 'stackId' | 'jobId' | 'documentId', string>
  >;
  /** Every id, for the check that no answer to another tenant carries one. */
  all: string[];
}

/** The `data:` events of an event stream. */
const events = (text: string): Record<string, unknown>[] =>
  text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .flatMap((line) => {
      try {
        return [JSON.parse(line.slice(6)) as Record<string, unknown>];
      } catch {
        return [];
      }
    });

async function json(url: string, req: RawRequest): Promise<Record<string, unknown>> {
  const res = await send(url, { timeoutMs: 60_000, ...req });
  try {
    return JSON.parse(res.text) as Record<string, unknown>;
  } catch {
    return { events: events(res.text) };
  }
}

const pick = (value: unknown, ...path: string[]): string | undefined => {
  let at: unknown = value;
  for (const key of path)
    at = typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[key] : undefined;
  return typeof at === 'string' ? at : undefined;
};

const completed = (answer: Record<string, unknown>, key: string): string | undefined =>
  ((answer.events ?? []) as Record<string, unknown>[])
    .map((e) => e[key])
    .find((v): v is string => typeof v === 'string');

export async function makeResources(stack: HostileStack, tenant: Tenant): Promise<Resources> {
  const { url } = stack;
  const key = tenant.key;
  const file = {
    fileName: `${tenant.name}.txt`,
    contentType: 'text/plain',
    data: Buffer.from(`INVOICE\nVendor: ${tenant.name}\nTotal: 12.50\n`),
  };
  const documentId = pick(
    await json(url, uploadRequest(key, '/api/documents', file)),
    'document',
    'id',
  );
  const extraction = documentId
    ? await json(url, jsonRequest(key, 'POST', '/api/extractions', { documentId }))
    : {};
  const stacked = documentId
    ? await json(url, jsonRequest(key, 'POST', '/api/stacks', { documentIds: [documentId] }))
    : {};
  const task = await json(
    url,
    jsonRequest(
      key,
      'POST',
      '/api/agent/interact',
      nextBody({ kind: 'SIMPLE', name: tenant.name, tenant: 0, answered: 0 }),
    ),
  );
  const knowledge = await json(
    url,
    uploadRequest(
      key,
      '/api/knowledge/ingest',
      { ...file, fileName: `${tenant.name}.md` },
      { domain: 'fuzz.example' },
    ),
  );
  const ids: Resources['ids'] = {
    sessionId: pick(task, 'sessionId'),
    taskId: pick(task, 'taskId'),
    extractionId: completed(extraction, 'extraction_id'),
    stackId: completed(stacked, 'stack_id'),
    jobId: await stack.finishedJob(tenant),
    documentId: pick(knowledge, 'document', 'id'),
  };
  const all = [...Object.values(ids), documentId].filter((v): v is string => typeof v === 'string');
  return { ids, all };
}
