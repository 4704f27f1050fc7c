// The tenant's routines (each routine's newest version): what they do, what they take, how often
// they ran again and what that saved. Renaming, disabling and deleting are on a routine's page.
import { RoutineListQuery, type RoutineList } from '@tandem/contracts';
import { requireAdminPage } from '../../../server/admin-page-auth';
import { fieldErrors } from '../../../server/http-error';
import { createRoutineService } from '../../../server/routine-service';
import { formatInt, formatTime } from '../_components/format';
import { clientErrorMessage, ReportError } from '../_components/report-error';
import { formParams, pagePath, type SearchParams } from '../_components/search-params';
import { TemplateText } from './template-text';

export const metadata = { title: 'Routines · Tandem admin' };

export default async function RoutinesPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await formParams(searchParams);
  const { auth, runtime } = await requireAdminPage(pagePath('/admin/routines', params));
  const { notice, error: actionError, ...query } = params;
  const parsed = RoutineListQuery.safeParse(query);
  let list: RoutineList | null = null;
  let error: string | null = actionError ?? null;
  if (!parsed.success) {
    error = fieldErrors(parsed.error)
      .map((f) => `${f.path}: ${f.message}`)
      .join('; ');
  } else {
    try {
      list = await createRoutineService(runtime.store).list(auth.tenantId, parsed.data);
    } catch (caught) {
      error = clientErrorMessage(caught);
    }
  }
  const olderHref = list?.nextCursor
    ? `/admin/routines?${new URLSearchParams({ ...query, cursor: list.nextCursor }).toString()}`
    : null;

  return (
    <>
      <h1>Routines</h1>
      <form className="filters" method="get" action="/admin/routines">
        <label>
          Site
          <input name="site" defaultValue={query.site ?? ''} placeholder="emr.example.com" />
        </label>
        <label>
          Versions
          <select name="versions" defaultValue={query.versions ?? 'latest'}>
            <option value="latest">Newest of each</option>
            <option value="all">Every version</option>
          </select>
        </label>
        <button type="submit">Show</button>
      </form>
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      {error ? <ReportError message={error} /> : null}
      {list ? <RoutineTable list={list} /> : null}
      {olderHref ? (
        <p>
          <a href={olderHref}>Older routines →</a>
        </p>
      ) : null}
    </>
  );
}

function RoutineTable({ list }: { list: RoutineList }) {
  if (list.items.length === 0) {
    return (
      <p className="muted">
        No routines yet. A task that completes with every step verified leaves a routine here.
      </p>
    );
  }
  return (
    <table aria-label="Routines">
      <thead>
        <tr>
          <th>Name</th>
          <th>Site</th>
          <th>Template</th>
          <th className="num">Version</th>
          <th className="num">Steps</th>
          <th className="num">Runs</th>
          <th className="num">Heals</th>
          <th className="num">Tokens saved</th>
          <th>State</th>
          <th>Updated</th>
        </tr>
      </thead>
      <tbody>
        {list.items.map((routine) => (
          <tr key={routine.id}>
            <td>
              <a href={`/admin/routines/${encodeURIComponent(routine.id)}`}>{routine.name}</a>
            </td>
            <td>{routine.site}</td>
            <td>
              <TemplateText template={routine.goalTemplate} />
              {routine.parameters.length > 0 ? (
                <div className="muted counts">
                  {routine.parameters.map((p) => (
                    <span key={p.name} className="param-example">
                      <code className="param">{p.name}</code> e.g. “{p.example}”
                    </span>
                  ))}
                </div>
              ) : null}
            </td>
            <td className="num">{formatInt(routine.version)}</td>
            <td className="num">{formatInt(routine.stepCount)}</td>
            <td className="num">{formatInt(routine.runs)}</td>
            <td className="num">{formatInt(routine.heals)}</td>
            <td className="num">{formatInt(routine.tokensSaved)}</td>
            <td>
              <span className={`badge ${routine.enabled ? 'ready' : 'cancelled'}`}>
                {routine.enabled ? 'enabled' : 'disabled'}
              </span>
            </td>
            <td>{formatTime(routine.updatedAt)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
