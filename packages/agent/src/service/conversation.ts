// The session's conversation as the prompts read it (docs/specs.md, "reasoning before planning":
// the context analyzer is given the chat history, its MEMORY source). Of the messages a session
// stores, the conversation is what people said to each other: the user's goals and answers, the
// agent's questions and final answers. The step-by-step thoughts in between are the task's log, not
// the conversation, and would push an earlier goal out of a short window.
import { isTerminalAction, safeParseAction } from '@tandem/contracts';
import type { Message, Store } from '@tandem/store';

/** Turns kept verbatim; older ones are summarised as the goals they asked for. */
export const RECENT_TURNS = 10;
/** Messages read per request: enough for a long session's turns, bounded in time. */
const MESSAGES_READ = 300;
const TURN_CHARS = 400;

const clip = (text: string, max: number) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

/** A message that is part of the conversation, as one line; null for a step's log line. */
function turnOf(message: Message): string | null {
  if (message.role === 'user') return `User: ${clip(message.content, TURN_CHARS)}`;
  if (message.role !== 'assistant') return null;
  if (message.actionString === null) return `Agent asked: ${clip(message.content, TURN_CHARS)}`;
  const action = safeParseAction(message.actionString);
  if (!action.ok || !isTerminalAction(action.action)) return null;
  const ended = action.action.name === 'finish' ? 'Agent finished' : 'Agent could not finish';
  return `${ended}: ${clip(message.content, TURN_CHARS)}`;
}

/** Messages (oldest first) → the conversation text; '' when there is none. */
export function renderConversation(messages: readonly Message[]): string {
  const turns = messages.flatMap((m) => {
    const line = turnOf(m);
    return line ? [{ line, goal: m.role === 'user' ? clip(m.content, 120) : null }] : [];
  });
  const older = turns.slice(0, Math.max(0, turns.length - RECENT_TURNS));
  const recent = turns.slice(older.length).map((t) => t.line);
  if (older.length === 0) return recent.join('\n');
  const goals = older.flatMap((t) => (t.goal ? [`“${t.goal}”`] : []));
  const summary =
    `Earlier in this session (${older.length} turn${older.length === 1 ? '' : 's'})` +
    (goals.length > 0 ? `, the user asked: ${goals.join('; ')}.` : '.');
  return [summary, ...recent].join('\n');
}

export async function conversationFor(
  store: Store,
  tenantId: string,
  sessionId: string,
): Promise<string> {
  const messages = await store.messages.list(tenantId, sessionId, { limit: MESSAGES_READ });
  return renderConversation(messages);
}
