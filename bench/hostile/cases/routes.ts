// How the attacker sends a file: to the three routes that read uploads. Each file goes where
// it was first found to hurt; a few go to more than one route, since each route wraps the readers
// itself.
import { jsonRequest, uploadRequest, type RawRequest } from '../http';
import type { HostileStack } from '../stack';

export interface HostileFile {
  fileName: string;
  contentType: string;
  data: Uint8Array;
}

export type Route = 'documents' | 'ingest' | 'inline';

export const ROUTE_LABEL: Record<Route, string> = {
  documents: 'POST /api/documents',
  ingest: 'POST /api/knowledge/ingest',
  inline: 'POST /api/extractions (inline)',
};

export function fileRequest(stack: HostileStack, route: Route, file: HostileFile): RawRequest {
  const key = stack.attacker.key;
  if (route === 'documents') return uploadRequest(key, '/api/documents', file);
  if (route === 'ingest')
    return uploadRequest(key, '/api/knowledge/ingest', file, { domain: 'hostile.example' });
  return jsonRequest(key, 'POST', '/api/extractions', {
    upload: {
      fileName: file.fileName,
      contentType: file.contentType,
      dataBase64: Buffer.from(file.data).toString('base64'),
    },
  });
}
