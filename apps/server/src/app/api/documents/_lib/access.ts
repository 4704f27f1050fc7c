// Lookups shared by the document routes: the caller's own records or 404, the same answer for
// another user's or another tenant's record as for none.
import type { AuthContext } from '../../../../server/auth';
import { HttpError } from '../../../../server/http-error';
import type { Runtime } from '../../../../server/runtime';

export async function requireExtraction(runtime: Runtime, auth: AuthContext, id: string) {
  const extraction = await runtime.store.documentExtractions.get(auth.tenantId, id, {
    userId: auth.userId,
  });
  if (!extraction) throw new HttpError('NOT_FOUND', `Extraction ${id} not found.`);
  return extraction;
}

export async function requireStack(runtime: Runtime, auth: AuthContext, id: string) {
  const stack = await runtime.store.stacks.get(auth.tenantId, id, { userId: auth.userId });
  if (!stack) throw new HttpError('NOT_FOUND', `Stack ${id} not found.`);
  return stack;
}

export async function requireDocument(runtime: Runtime, auth: AuthContext, id: string) {
  const document = await runtime.store.documents.get(auth.tenantId, id, { userId: auth.userId });
  if (!document) throw new HttpError('NOT_FOUND', `Document ${id} not found.`);
  return document;
}

export const caller = (auth: AuthContext) => ({ tenantId: auth.tenantId, userId: auth.userId });
