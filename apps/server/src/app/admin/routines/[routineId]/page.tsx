// One routine version: its steps as a rerun replays them, every version of the routine, and the
// forms that rename, enable/disable or delete it (they post to /admin/routines/actions and act
// on every version, like PATCH/DELETE /api/routines/{id}).
import { ROUTINE_NAME_MAX_LENGTH, type RoutineDetail } from '@tandem/contracts';
import { notFound } from 'next/navigation';
import { requireAdminPage } from '../../../../server/admin-page-auth';
import { mapError } from '../../../../server/http-error';
import { createRoutineService } from '../../../../server/routine-service';
import { formatInt, formatTime } from '../../_components/format';
import { ReportError } from '../../_components/report-error';
import { formParams, type SearchParams } from '../../_components/search-params';
import { expectationText, targetText } from '../routine-format';
import { TemplateText } from '../template-text';

export const metadata = { title: 'Routine · Tandem admin' };

const ACTIONS = '/admin/routines/actions';

export default async function RoutinePage({
  params,
  searchParams,
}: {
  params: Promise<{ routineId: string }>;
  searchParams: SearchParams;
}) {
  const { routineId } = await params;
  const { notice, error } = await formParams(searchParams);
  const { auth, runtime } = await requireAdminPage(
    `/admin/routines/${encodeURIComponent(routineId)}`,
  );
  let routine: RoutineDetail;
  try {
    routine = await createRoutineService(runtime.store).get(auth.tenantId, routineId);
  } catch (caught) {
    if (mapError(caught).body.error.code === 'NOT_FOUND') notFound();
    throw caught;
  }
  return (
    <>
      <p>
        <a href="/admin/routines">← Routines</a>
      </p>
      <h1>{routine.name}</h1>
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      {error ? <ReportError message={error} /> : null}
      <dl className="fields">
        <dt>State</dt>
        <dd>
          <span className={`badge ${routine.enabled ? 'ready' : 'cancelled'}`}>
            {routine.enabled ? 'enabled' : 'disabled'}
          </span>
        </dd>
        <dt>Site</dt>
        <dd>{routine.site}</dd>
        <dt>Goal template</dt>
        <dd>
          <TemplateText template={routine.goalTemplate} />
        </dd>
        <dt>Parameters</dt>
        <dd>
          {routine.parameters.length === 0
            ? 'none'
            : routine.parameters.map((p) => (
                <span key={p.name} className="param-example">
                  <code className="param">{p.name}</code> e.g. “{p.example}”
                </span>
              ))}
        </dd>
        <dt>Version</dt>
        <dd>
          {formatInt(routine.version)} of {formatInt(routine.versions.length)} · created{' '}
          {formatTime(routine.createdAt)}
        </dd>
        <dt>Reruns</dt>
        <dd>
          {formatInt(routine.runs)} {routine.runs === 1 ? 'run' : 'runs'} ·{' '}
          {formatInt(routine.heals)} {routine.heals === 1 ? 'step' : 'steps'} healed ·{' '}
          {formatInt(routine.tokensSaved)} tokens saved
        </dd>
        <dt>Compiled from</dt>
        <dd>
          {routine.sourceTaskId ? (
            <a href={`/admin/tasks/${encodeURIComponent(routine.sourceTaskId)}`}>
              task {routine.sourceTaskId}
            </a>
          ) : (
            '—'
          )}
        </dd>
      </dl>

      <h2>Manage</h2>
      <p className="muted note">These act on every version of the routine.</p>
      <form className="inline" method="post" action={ACTIONS}>
        <input type="hidden" name="action" value="rename" />
        <input type="hidden" name="routineId" value={routine.id} />
        <label>
          Name{' '}
          <input
            name="name"
            defaultValue={routine.name}
            required
            maxLength={ROUTINE_NAME_MAX_LENGTH}
          />
        </label>
        <button type="submit">Rename</button>
      </form>
      <form className="inline" method="post" action={ACTIONS}>
        <input type="hidden" name="action" value={routine.enabled ? 'disable' : 'enable'} />
        <input type="hidden" name="routineId" value={routine.id} />
        <button type="submit" className="secondary">
          {routine.enabled ? 'Disable' : 'Enable'}
        </button>
      </form>
      <form className="inline" method="post" action={ACTIONS}>
        <input type="hidden" name="action" value="delete" />
        <input type="hidden" name="routineId" value={routine.id} />
        <button type="submit" className="danger">
          Delete routine
        </button>
      </form>

      <h2>Steps</h2>
      <table aria-label="Steps">
        <thead>
          <tr>
            <th className="num">#</th>
            <th>Action</th>
            <th>Target</th>
            <th>Value</th>
            <th>Expected outcome</th>
            <th>Safety</th>
          </tr>
        </thead>
        <tbody>
          {routine.steps.map((step, index) => (
            <tr key={index}>
              <td className="num">{index + 1}</td>
              <td>
                {/* One word: never broken mid-word in the narrow column ("extrac t"). */}
                <code className="word">{step.action}</code>
                {step.chained ? <div className="muted counts">chained with next</div> : null}
                {step.optional ? <div className="muted counts">optional</div> : null}
              </td>
              <td>
                {targetText(step.target, step.action)}
                {step.target ? <div className="muted counts">{step.target.fingerprint}</div> : null}
              </td>
              <td>{step.value === null ? '—' : <TemplateText template={step.value} />}</td>
              <td>{expectationText(step.expect, step.action)}</td>
              <td>
                <span className={`badge ${step.safety === 'safe' ? 'ready' : 'needs_user_input'}`}>
                  {step.safety}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>

      <h2>Versions</h2>
      <table aria-label="Versions">
        <thead>
          <tr>
            <th className="num">Version</th>
            <th>Created</th>
            <th className="num">Steps</th>
            <th className="num">Runs</th>
            <th className="num">Heals</th>
            <th className="num">Tokens saved</th>
            <th>State</th>
          </tr>
        </thead>
        <tbody>
          {routine.versions.map((version) => (
            <tr key={version.id}>
              <td className="num">
                {version.id === routine.id ? (
                  <b>{formatInt(version.version)}</b>
                ) : (
                  <a href={`/admin/routines/${encodeURIComponent(version.id)}`}>
                    {formatInt(version.version)}
                  </a>
                )}
              </td>
              <td>{formatTime(version.createdAt)}</td>
              <td className="num">{formatInt(version.stepCount)}</td>
              <td className="num">{formatInt(version.runs)}</td>
              <td className="num">{formatInt(version.heals)}</td>
              <td className="num">{formatInt(version.tokensSaved)}</td>
              <td>{version.enabled ? 'enabled' : 'disabled'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
