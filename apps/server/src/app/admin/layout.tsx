import { cookies } from 'next/headers';
import type { ReactNode } from 'react';
import { ADMIN_COOKIE } from '../../server/admin-session';
import { ADMIN_CSS } from './_components/admin-styles';
import { HydrationMark } from './_components/hydration-mark';

export const metadata = { title: 'Tandem admin' };

export default async function AdminLayout({ children }: { children: ReactNode }) {
  // Signed out (no key cookie), the menu would only lead back to the sign-in form. The key
  // itself is checked by each page (requireAdminPage), not here: a stale key keeps the menu
  // and its Sign out, which is the way to clear it.
  const signedIn = Boolean((await cookies()).get(ADMIN_COOKIE)?.value);
  return (
    <div className="admin">
      <style>{ADMIN_CSS}</style>
      <header>
        <strong>Tandem admin</strong>
        {signedIn ? (
          <>
            <nav aria-label="Admin">
              <a href="/admin/billing">Billing</a>
              <a href="/admin/tasks">Tasks</a>
              <a href="/admin/knowledge">Knowledge</a>
              <a href="/admin/routines">Routines</a>
            </nav>
            <form method="post" action="/admin/logout">
              <button type="submit" className="link">
                Sign out
              </button>
            </form>
          </>
        ) : null}
      </header>
      <main>{children}</main>
      <HydrationMark />
    </div>
  );
}
