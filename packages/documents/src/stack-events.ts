// A stack run's events on the event bus, as run-events.ts has them for extraction runs: the
// worker running the stack's job publishes them, and every process hears them, so the request
// that started the run and GET /api/stacks/{id}/events follow it from any server. Stack events
// carry no ids: a stack keeps no write history to resume from, only its rows.
import { StackStreamEvent } from '@tandem/contracts';
import type { IdempotencyRepository } from '@tandem/store';
import { z } from 'zod';
import { followRun } from './follow-run';
import { runInProgress, type RunEventBus } from './run-events';

export const stackChannel = (tenantId: string, stackId: string): string =>
  `stack:${tenantId}:${stackId}`;

/** The subject of a stack's run lock (extractions' locks are named by their bare id). */
export const stackLockSubject = (stackId: string): string => `stack:${stackId}`;

const StackBusMessage = z.strictObject({ event: StackStreamEvent });

export function stackBusMessage(event: StackStreamEvent): { event: StackStreamEvent } {
  return { event };
}

/** A bus message read back: null when it is not a stack event (another version's, or garbage). */
export function readStackBusMessage(data: unknown): StackStreamEvent | null {
  const parsed = StackBusMessage.safeParse(data);
  return parsed.success ? parsed.data.event : null;
}

/** Whether a run holds the stack's lock now (the lock lapses a lease after its run dies). */
export function stackRunInProgress(
  idempotency: Pick<IdempotencyRepository, 'get'>,
  tenantId: string,
  stackId: string,
): Promise<boolean> {
  return runInProgress(idempotency, tenantId, stackLockSubject(stackId));
}

export interface FollowStackOptions {
  bus: RunEventBus;
  tenantId: string;
  stackId: string;
  /** Whether the run still goes on (asked at the start and every `checkMs`). */
  running: () => Promise<boolean>;
  /** The `complete` event of a run that ended without one reaching us (it died, or ended first). */
  completion: () => Promise<StackStreamEvent>;
  checkMs?: number;
}

/** The events of the stack's run from now to its `complete` (followRun). */
export function followStack(options: FollowStackOptions): Promise<AsyncIterable<StackStreamEvent>> {
  return followRun<StackStreamEvent>({
    bus: options.bus,
    channel: stackChannel(options.tenantId, options.stackId),
    read: readStackBusMessage,
    isComplete: (event) => 'complete' in event,
    running: options.running,
    completion: options.completion,
    ...(options.checkMs === undefined ? {} : { checkMs: options.checkMs }),
  });
}
