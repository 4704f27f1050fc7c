// Which class names mark an error or success message. Token-level so "error-boundary" (a
// React wrapper) or "btn-danger" (a delete button) do not count, while "alert-danger",
// "invalid-feedback", "form-error" and "toast-success" do.

const PREFIX =
  '(?:(?:alert|toast|notification|notice|message|msg|flash|banner|callout|form|field|validation|input|has)[-_]+)?';
const SUFFIX =
  '(?:[-_]+(?:message|msg|text|feedback|summary|banner|alert|toast|notice|notification|box))?';
const ERROR_TOKEN = new RegExp(`^${PREFIX}(?:error|errors|danger|invalid|failure)${SUFFIX}$`, 'i');
const SUCCESS_TOKEN = new RegExp(
  `^${PREFIX}(?:success|succeeded|saved|confirmation)${SUFFIX}$`,
  'i',
);
const QUICK = /err|danger|invalid|fail|succ|saved|confirm/i;

export type MessageKind = 'error' | 'success';

export function messageKindOfClass(classAttribute: string): MessageKind | undefined {
  if (!QUICK.test(classAttribute)) return undefined;
  let success = false;
  for (const token of classAttribute.split(/\s+/)) {
    if (ERROR_TOKEN.test(token)) return 'error';
    if (SUCCESS_TOKEN.test(token)) success = true;
  }
  return success ? 'success' : undefined;
}

const ERROR_TEXT =
  /\b(error|failed|failure|invalid|incorrect|could not|couldn't|cannot|unable|denied|not allowed|try again|is required|are required)\b/i;
const SUCCESS_TEXT =
  /\b(success|successful|successfully|saved|created|updated|submitted|added|deleted|removed|sent|completed|confirmed|thank you|thanks)\b/i;

/** Classifies a short message by its wording; undefined when it says neither. */
export function messageKindOfText(text: string): MessageKind | undefined {
  if (ERROR_TEXT.test(text)) return 'error';
  if (SUCCESS_TEXT.test(text)) return 'success';
  return undefined;
}
