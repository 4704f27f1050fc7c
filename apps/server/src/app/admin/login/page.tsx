import { safeAdminPath } from '../../../server/admin-session';
import { LoginForm } from '../_components/login-form';

export const metadata = { title: 'Sign in · Tandem admin' };

const ERRORS: Record<string, string> = {
  missing: 'Enter an API key.',
  invalid: 'That key is not valid (unknown or revoked).',
  locked: 'Too many failed sign-ins from this address; try again in a few minutes.',
};

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { error, next } = await searchParams;
  const message = typeof error === 'string' ? ERRORS[error] : undefined;
  return (
    <>
      <h1>Sign in</h1>
      <p className="muted">
        Admin pages need an API key with the admin role. Create one with{' '}
        <code>npm run cli -- key create --tenant &lt;tenantId&gt; --role admin</code>.
      </p>
      {message ? (
        <p className="error" role="alert">
          {message}
        </p>
      ) : null}
      <LoginForm next={safeAdminPath(next)} />
    </>
  );
}
