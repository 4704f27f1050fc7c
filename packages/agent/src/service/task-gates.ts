// Which requests may advance a task: the one rule for a continuation, an answer, and a write
// that lost its compare-and-set (task-write.ts).
import type { Task } from '@tandem/store';
import { InteractError } from './interact-error';

/** Why this request may not continue the task, or null when it may. */
export function continuationRefusal(
  task: Task | null,
  taskId: string,
  sessionId: string,
  answering: boolean,
): InteractError | null {
  if (!task) return new InteractError('NOT_FOUND', `Task ${taskId} not found.`);
  const ended = endedRefusal(task);
  if (ended) return ended;
  if (task.sessionId && task.sessionId !== sessionId)
    return new InteractError('CONFLICT', 'This task belongs to another session.');
  if (task.status === 'needs_user_input' && !answering)
    return new InteractError(
      'CONFLICT',
      'This task is waiting for the answer to its question: send it as `answer`.',
    );
  if (task.status !== 'needs_user_input' && answering)
    return new InteractError('CONFLICT', 'This task is not waiting for an answer.');
  return null;
}

/** The answer for a task that ended, whichever way; null while it is live. */
export function endedRefusal(task: Task): InteractError | null {
  switch (task.status) {
    case 'completed':
      return new InteractError(
        'TASK_COMPLETED',
        'This task is already completed; start a new task.',
      );
    case 'failed':
      return new InteractError(
        'TASK_FAILED',
        `This task has failed${task.result ? `: ${task.result}` : ''}; start a new task.`,
      );
    case 'cancelled':
      return new InteractError('TASK_CANCELLED', 'This task was stopped; start a new task.');
    case 'interrupted':
      return new InteractError(
        'CONFLICT',
        'This task was interrupted after 30 minutes without activity; start a new task.',
      );
    default:
      return null;
  }
}
