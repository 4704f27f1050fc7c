import { ADMIN_HOME } from '../../server/admin-session';
import { LoginForm } from './_components/login-form';

// Rendered with status 403 when a page's key lacks the admin role.
export default function AdminForbidden() {
  return (
    <>
      <h1>Admin key required (403)</h1>
      <p className="error" role="alert">
        You are signed in with a user key. These pages need an API key with the admin role.
      </p>
      <p className="muted">
        Create one with{' '}
        <code>npm run cli -- key create --tenant &lt;tenantId&gt; --role admin</code>, then sign in
        with it:
      </p>
      <LoginForm next={ADMIN_HOME} label="Sign in with an admin key" />
    </>
  );
}
