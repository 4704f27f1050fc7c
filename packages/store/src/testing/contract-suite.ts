// The store contract, written once and run against every adapter (libSQL here, MongoDB
// wherever MONGODB_URI points). If two adapters pass it, callers cannot tell them apart.
//
// Each repository's tests open their own store (makeStore per describe) and create their own
// tenants with random names, so the suite is safe against a shared, persistent database.
import { describe } from 'vitest';
import type { Store } from '../port';
import { adminReportsContract } from './contract/admin-reports';
import { conversationsContract } from './contract/conversations';
import { documentsContract } from './contract/documents';
import { extractionContract } from './contract/extraction';
import { extractionResultsContract } from './contract/extraction-results';
import { guardsContract } from './contract/guards';
import { identityContract } from './contract/identity';
import { isolationContract } from './contract/isolation';
import { knowledgeContract } from './contract/knowledge';
import { knowledgeJobsContract } from './contract/knowledge-jobs';
import { knowledgeSearchContract } from './contract/knowledge-search';
import { liveEventsContract } from './contract/live-events';
import { queuedJobsContract } from './contract/queued-jobs';
import { routinesContract } from './contract/routines';
import { skillsContract } from './contract/skills';
import { tasksContract } from './contract/tasks';
import { transactionsContract } from './contract/transactions';
import { uploadsContract } from './contract/uploads';
import { usageContract } from './contract/usage';

export function runStoreContractSuite(name: string, makeStore: () => Promise<Store>): void {
  describe(`store contract: ${name}`, () => {
    identityContract(makeStore);
    conversationsContract(makeStore);
    tasksContract(makeStore);
    usageContract(makeStore);
    adminReportsContract(makeStore);
    skillsContract(makeStore);
    routinesContract(makeStore);
    knowledgeContract(makeStore);
    knowledgeSearchContract(makeStore);
    knowledgeJobsContract(makeStore);
    uploadsContract(makeStore);
    queuedJobsContract(makeStore);
    liveEventsContract(makeStore);
    extractionContract(makeStore);
    extractionResultsContract(makeStore);
    documentsContract(makeStore);
    guardsContract(makeStore);
    transactionsContract(makeStore);
    isolationContract(makeStore);
  });
}
