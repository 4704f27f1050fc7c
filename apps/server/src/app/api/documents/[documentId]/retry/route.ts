import { endpoints } from '@tandem/contracts';
import { createRoute, withStatus } from '../../../../../server/create-route';
import { isRetryable } from '../../../../../server/document-uploads';
import { HttpError } from '../../../../../server/http-error';
import { caller, requireDocument } from '../../_lib/access';
import { documentView } from '../../_lib/views';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// A failed document read again from its stored file by a new job.
export const POST = createRoute(endpoints.documentRetry, {
  handler: async ({ params, runtime, auth }) => {
    const document = await requireDocument(runtime, auth, params.documentId);
    const queued = await runtime.documentUploads.retry(caller(auth), document.id);
    if (!queued) {
      throw new HttpError(
        'CONFLICT',
        document.status !== 'failed'
          ? `${document.fileName} is ${document.status}, not failed: there is nothing to retry.`
          : isRetryable(document)
            ? `${document.fileName} can no longer be retried: its file is not kept any more. Upload it again.`
            : `${document.fileName} cannot be retried: ${document.error ?? 'the file could not be read'} Upload a readable file instead.`,
      );
    }
    return withStatus(202, { document: documentView(queued) });
  },
});
