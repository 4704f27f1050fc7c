// The report window picker: a plain GET form, so a report is a shareable URL (it holds dates
// and filters only; the key stays in the cookie). Both dates are whole UTC days and both are
// included: a date-only `to` is resolved to the end of that day (reports/window.ts).
import type { ReactNode } from 'react';
import type { ReportWindow } from '@tandem/contracts';
import { lastDayOf } from './format';

export function WindowForm({
  action,
  window,
  children,
}: {
  action: string;
  window: ReportWindow | null;
  children?: ReactNode;
}) {
  return (
    <form method="get" action={action} className="filters">
      <label>
        From (UTC day)
        <input type="date" name="from" defaultValue={window?.from.slice(0, 10)} />
      </label>
      <label>
        To (UTC day, included)
        <input type="date" name="to" defaultValue={window ? lastDayOf(window.to) : undefined} />
      </label>
      {children}
      <button type="submit">Show</button>
    </form>
  );
}
