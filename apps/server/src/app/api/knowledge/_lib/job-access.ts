import type { KnowledgeJob } from '@tandem/store';
import { HttpError } from '../../../../server/http-error';
import type { Runtime } from '../../../../server/runtime';

/** Another tenant's job is NOT_FOUND, like one that does not exist. */
export async function requireJob(
  runtime: Runtime,
  tenantId: string,
  jobId: string,
): Promise<KnowledgeJob> {
  const job = await runtime.store.knowledgeJobs.get(tenantId, jobId);
  if (!job) throw new HttpError('NOT_FOUND', 'No such knowledge job.');
  return job;
}
