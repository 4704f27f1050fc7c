// /extractions: sign in with an API key (kept in an httpOnly cookie), then the document
// extraction app. The key is checked on every view, as the API checks it on every request.
import { cookies } from 'next/headers';
import { authenticate } from '../../server/auth';
import { getRuntime } from '../../server/runtime';
import { USER_COOKIE } from '../../server/user-session';
import { documentView, extractionView } from '../api/documents/_lib/views';
import { ExtractionsApp } from './_components/extractions-app';

export const dynamic = 'force-dynamic';

const ERRORS: Record<string, string> = {
  missing: 'Enter an API key.',
  invalid: 'That key is not valid (unknown or revoked).',
  locked: 'Too many failed sign-ins from this address; try again in a few minutes.',
};

function SignIn({ error }: { error?: string | undefined }) {
  return (
    <>
      <h1>Documents</h1>
      <p className="muted">
        Extract the data of invoices, claim forms and lab reports. Sign in with your API key (the
        server prints one on its first start; more with <code>npm run cli -- key create</code>).
      </p>
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
      <form method="post" action="/extractions/session" className="login">
        <label htmlFor="user-key">API key</label>
        <input
          id="user-key"
          name="key"
          type="password"
          autoComplete="off"
          spellCheck={false}
          placeholder="tdm_…"
          required
        />
        <button type="submit">Sign in</button>
      </form>
    </>
  );
}

export default async function ExtractionsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { error } = await searchParams;
  const key = (await cookies()).get(USER_COOKIE)?.value;
  if (!key) return <SignIn error={typeof error === 'string' ? ERRORS[error] : undefined} />;
  const runtime = await getRuntime();
  const auth = await authenticate(
    new Request('http://extractions.local/', { headers: { authorization: `Bearer ${key}` } }),
    runtime.store,
    'apiKey',
  ).catch(() => null);
  if (!auth) return <SignIn error={ERRORS.invalid} />;
  const [page, documents] = await Promise.all([
    runtime.store.documentExtractions.list(auth.tenantId, { userId: auth.userId, limit: 50 }),
    runtime.store.documents.list(auth.tenantId, { userId: auth.userId }),
  ]);
  return (
    <>
      <header>
        <strong>Tandem · Documents</strong>
        <form method="post" action="/extractions/logout">
          <button type="submit" className="secondary">
            Sign out
          </button>
        </form>
      </header>
      <ExtractionsApp
        initial={page.items.map(extractionView)}
        documents={documents.map(documentView)}
        modelConfigured={runtime.llm.configured}
      />
    </>
  );
}
