import type {
  AdminTaskDetail,
  AdminTaskStep,
  HierarchicalPlan,
  StepUsage,
} from '@tandem/contracts';
import { notFound } from 'next/navigation';
import { requireAdminPage } from '../../../../server/admin-page-auth';
import { mapError } from '../../../../server/http-error';
import { formatInt, formatMs, formatTime, formatUsd } from '../../_components/format';

export const metadata = { title: 'Task trace · Tandem admin' };

export default async function TaskPage({ params }: { params: Promise<{ taskId: string }> }) {
  const { taskId } = await params;
  const { auth, admin } = await requireAdminPage(`/admin/tasks/${encodeURIComponent(taskId)}`);
  let detail: AdminTaskDetail;
  try {
    detail = await admin.task(auth.tenantId, taskId);
  } catch (error) {
    if (mapError(error).body.error.code === 'NOT_FOUND') notFound();
    throw error;
  }
  const { task, steps, afterLastStep } = detail;
  return (
    <>
      <p>
        <a href="/admin/tasks">← Tasks</a>
      </p>
      <h1>{task.query}</h1>
      <dl className="fields">
        <dt>Status</dt>
        <dd>
          <span className={`badge ${task.status}`}>{task.status}</span>
          {task.result ? <span> {task.result}</span> : null}
        </dd>
        <dt>Complexity</dt>
        <dd>{task.complexity ?? '—'}</dd>
        <dt>Page</dt>
        <dd>{task.url}</dd>
        <dt>User</dt>
        <dd>{task.userId}</dd>
        <dt>Created</dt>
        <dd>{formatTime(task.createdAt)}</dd>
        <dt>Round trips</dt>
        <dd>
          {formatInt(task.steps)} round trips (answers that sent an action or a chain, the closing{' '}
          <code>finish()</code> included) · {formatInt(task.corrections)} corrections ·{' '}
          {formatMs(task.durationMs)} server time
        </dd>
        <dt>LLM usage</dt>
        <dd>
          {formatInt(task.usage.calls)} calls · {formatInt(task.usage.totalTokens)} tokens (
          {formatInt(task.usage.inputTokens)} in, {formatInt(task.usage.cachedInputTokens)} of them
          cached) · <b>{formatUsd(task.usage.costUsd)}</b>
        </dd>
        <dt>Task id</dt>
        <dd>
          <code>{task.id}</code>
        </dd>
      </dl>
      {task.hierarchicalPlan ? <SubTasks hierarchy={task.hierarchicalPlan} /> : null}
      {task.plan && task.plan.steps.length > 0 ? (
        <>
          <h2>Plan</h2>
          <ol>
            {task.plan.steps.map((step) => (
              <li key={step.index}>
                {step.subTask ? (
                  <span className="muted">{`${step.subTask.index + 1}. ${step.subTask.name} · `}</span>
                ) : null}
                {step.description} <span className={`badge ${step.status}`}>{step.status}</span>
                {step.contingencies?.length ? (
                  <span className="muted">
                    {' '}
                    · if{' '}
                    {step.contingencies.map((c) => `${c.condition}: ${c.action}`).join('; if ')}
                  </span>
                ) : null}
              </li>
            ))}
          </ol>
        </>
      ) : null}
      <h2>Round trips</h2>
      <p className="muted">
        One card per answer that sent the browser an action or a chain, numbered in the order sent.
        {task.plan ? (
          <>
            {' '}
            <i>Plan step</i> names the item of the plan it worked on: several round trips can serve
            one plan step (a retry, the closing <code>finish()</code>).
          </>
        ) : null}
      </p>
      {steps.length === 0 ? <p className="muted">No round trips recorded.</p> : null}
      <ol className="steps" aria-label="Round trips">
        {steps.map((step, i) => (
          <StepItem
            key={step.id}
            step={step}
            position={i + 1}
            planSteps={task.plan?.steps.length ?? null}
          />
        ))}
      </ol>
      {afterLastStep.calls > 0 ? (
        <>
          <h2>After the last step</h2>
          <p className="muted">The request that verified the last step and ended the task.</p>
          <UsageLine usage={afterLastStep} />
        </>
      ) : null}
    </>
  );
}

/**
 * One stored action. Its `stepIndex` is the plan step it served, not its position: two round
 * trips on plan step 0 both used to read "Step 1", so the card is numbered by position and
 * names its plan step apart (when the task had a plan).
 */
function StepItem({
  step,
  position,
  planSteps,
}: {
  step: AdminTaskStep;
  position: number;
  planSteps: number | null;
}) {
  const v = step.verification;
  // Without a plan (a SIMPLE task) the index names nothing the page shows.
  const planStep = planSteps ? `plan step ${step.stepIndex + 1} of ${planSteps}` : null;
  return (
    <li data-testid="task-step">
      <div className="step-head">
        <strong>Round trip {position}</strong>
        {planStep ? <span className="muted">{planStep}</span> : null}
        <span className={`badge ${step.status}`}>{step.status}</span>
        <span className="muted">
          {formatMs(step.latencyMs)} · {formatInt(step.usage.totalTokens)} tokens ·{' '}
          {formatUsd(step.usage.costUsd)}
        </span>
      </div>
      <dl className="fields">
        <dt>Thought</dt>
        <dd>{step.thought}</dd>
        <dt>{step.chain.length > 1 ? `Chain (${step.chain.length})` : 'Action'}</dt>
        <dd>
          {step.chain.length > 1 ? (
            <ol>
              {step.chain.map((action, i) => (
                <li key={i}>
                  <code>{action}</code>
                </li>
              ))}
            </ol>
          ) : (
            <code>{step.action}</code>
          )}
        </dd>
        {step.expectedOutcome ? (
          <>
            <dt>Expected</dt>
            <dd>{step.expectedOutcome.description}</dd>
          </>
        ) : null}
        <dt>Verification</dt>
        <dd>
          {v ? (
            <>
              <span className={`badge ${v.success ? 'passed' : 'failed'}`}>
                {v.success ? 'passed' : 'failed'}
              </span>{' '}
              {v.verificationTier ? `tier ${v.verificationTier} · ` : ''}confidence{' '}
              {v.confidence.toFixed(2)} · {v.reason}
              {v.observations && v.observations.length > 0 ? (
                <ul>
                  {v.observations.map((o, i) => (
                    <li key={i}>{o}</li>
                  ))}
                </ul>
              ) : null}
            </>
          ) : (
            <span className="muted">not verified</span>
          )}
        </dd>
        {step.corrections.length > 0 ? (
          <>
            <dt>Corrections</dt>
            <dd>
              <ul>
                {step.corrections.map((c) => (
                  <li key={c.id}>
                    {c.strategy} (attempt {c.attempt}): <code>{c.failedAction}</code> →{' '}
                    <code>{c.correctedAction}</code> — {c.reason}
                    {c.succeeded === undefined ? '' : c.succeeded ? ' ✓ worked' : ' ✗ failed'}
                  </li>
                ))}
              </ul>
            </dd>
          </>
        ) : null}
        <dt>LLM calls</dt>
        <dd>
          <UsageLine usage={step.usage} />
        </dd>
      </dl>
    </li>
  );
}

function UsageLine({ usage }: { usage: StepUsage }) {
  if (usage.calls === 0) return <span className="muted">none (resolved without the model)</span>;
  return (
    <ul>
      {usage.byActionType.map((u) => (
        <li key={u.actionType}>
          {/* A node answered inside another node's call is priced here with no call of its own. */}
          {u.actionType} {u.calls === 0 ? '(in a shared call)' : `×${u.calls}`} ·{' '}
          {formatInt(u.inputTokens)} in ({formatInt(u.cachedInputTokens)} cached) /{' '}
          {formatInt(u.outputTokens)} out · {formatUsd(u.costUsd)}
        </li>
      ))}
    </ul>
  );
}

/** Hierarchical planning: each sub-task with its contract (what it needs, what it produces). */
function SubTasks({ hierarchy }: { hierarchy: HierarchicalPlan }) {
  return (
    <>
      <h2>Sub-tasks</h2>
      <ol aria-label="Sub-tasks">
        {hierarchy.subTasks.map((task) => (
          <li key={task.id}>
            <b>{task.name}</b> <span className={`badge ${task.status}`}>{task.status}</span>{' '}
            {task.description}
            <span className="muted">
              {' '}
              · steps {task.stepIndexes.map((i) => i + 1).join(', ')}
              {task.inputs.length > 0 ? ` · needs: ${task.inputs.join('; ')}` : ''}
              {task.outputs.length > 0 ? ` · produces: ${task.outputs.join('; ')}` : ''}
            </span>
          </li>
        ))}
      </ol>
    </>
  );
}
