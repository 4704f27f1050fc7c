import { ADMIN_HOME } from '../../server/admin-session';
import { LoginForm } from './_components/login-form';

// Rendered with status 401 when the signed-in key is unknown or was revoked.
export default function AdminUnauthorized() {
  return (
    <>
      <h1>Sign in again (401)</h1>
      <p className="error" role="alert">
        The key you signed in with is no longer valid (unknown or revoked).
      </p>
      <LoginForm next={ADMIN_HOME} />
    </>
  );
}
