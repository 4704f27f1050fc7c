import type { ReactNode } from 'react';
import { ADMIN_CSS } from './_components/admin-styles';
import { HydrationMark } from './_components/hydration-mark';

export const metadata = { title: 'Tandem admin' };

export default function AdminLayout({ children }: { children: ReactNode }) {
  return (
    <div className="admin">
      <style>{ADMIN_CSS}</style>
      <header>
        <strong>Tandem admin</strong>
        <nav aria-label="Admin">
          <a href="/admin/billing">Billing</a>
          <a href="/admin/tasks">Tasks</a>
          <a href="/admin/knowledge">Knowledge</a>
        </nav>
        <form method="post" action="/admin/logout">
          <button type="submit" className="link">
            Sign out
          </button>
        </form>
      </header>
      <main>{children}</main>
      <HydrationMark />
    </div>
  );
}
