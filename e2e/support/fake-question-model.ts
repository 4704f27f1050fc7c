// The fake model's question scenario ("Add a new patient named Jas Patel with her date of
// birth"): the goal does not state the date, which only the user knows, so context analysis
// asks for it (ASK_USER) until the conversation holds the user's answer; then the patient's
// script types that date too, like a model reading the conversation would.
import {
  answerOf,
  PAGE_IS_ENOUGH,
  scriptAnswers,
  type Scenario,
  type StepsScript,
} from '@tandem/agent/testing/model-double';
import { PATIENT } from './fake-everyday-model';

/** The month names as users write them, lower-case, January first. */
const MONTHS = Array.from({ length: 12 }, (_, month) =>
  new Date(2000, month, 1).toLocaleString('en', { month: 'long' }).toLowerCase(),
);

const pad = (n: number) => String(n).padStart(2, '0');

/** A date in the user's words ("12 March 1990", "03/12/1990") as the EMR's MM/DD/YYYY. */
export function usDate(text: string): string | null {
  const us = /\b(\d{2})\/(\d{2})\/(\d{4})\b/.exec(text);
  if (us) return us[0];
  const words = /\b(\d{1,2})\s+([A-Za-z]+)\s+(\d{4})\b/.exec(text);
  const month = words ? MONTHS.indexOf((words[2] ?? '').toLowerCase()) : -1;
  if (!words || month < 0) return null;
  return `${pad(month + 1)}/${pad(Number(words[1]))}/${words[3]}`;
}

/**
 * The date of birth the user gave, read from what they said: the prompt's conversation lines
 * ("User: …") only, never the page (the EMR's patient table is full of dates).
 */
export function answeredDateOfBirth(prompt: string): string | null {
  for (const line of prompt.split('\n')) {
    const said = /^User: (.*)$/.exec(line.trim())?.[1];
    const date = said ? usDate(said) : null;
    if (date) return date;
  }
  return null;
}

/** Context analysis asks for the date until the conversation holds it. */
function contextAnalysis(dob: string | null): unknown {
  if (dob)
    return {
      ...PAGE_IS_ENOUGH,
      requiredSources: ['MEMORY', 'PAGE'],
      reasoning: `The user gave the date of birth (${dob}) in the conversation.`,
    };
  return {
    source: 'ASK_USER',
    requiredSources: ['ASK_USER'],
    missingInformation: ['Jas Patel’s date of birth'],
    searchQuery: null,
    reasoning: 'The goal does not state the date of birth, which only the user knows.',
  };
}

/** The new patient's script, with the date typed before the save, every step refinable. */
const WITH_BIRTHDAY: StepsScript = {
  ...PATIENT,
  intents: [
    ...PATIENT.intents.slice(0, -1),
    { kind: 'type', target: 'Date of birth', text: answeredDateOfBirth },
    { kind: 'click', target: 'Save' },
  ],
};

/** What the user reads once the patient is saved, with the date they gave. */
const addedWith = (dob: string | null) =>
  dob
    ? `Jas Patel (born ${dob}) was added as a new patient.`
    : 'Jas Patel was added as a new patient, without a date of birth.';

const BIRTHDAY_SCRIPT = scriptAnswers(() => WITH_BIRTHDAY);

export const BIRTHDAY: Scenario = {
  applies: ({ goal }) => /patient/i.test(goal) && /date of birth/i.test(goal),
  // The other nodes are answered as for every patient (fake-everyday-model.ts).
  answers: scriptAnswers(() => WITH_BIRTHDAY, {
    context_analysis: ({ prompt }) => contextAnalysis(answeredDateOfBirth(prompt)),
    // The plan's answer names the date the conversation gave, as a model reading it would.
    planning: (call) => ({
      ...(answerOf(BIRTHDAY_SCRIPT, call) as object),
      answer: addedWith(answeredDateOfBirth(call.prompt)),
    }),
    outcome_prediction: undefined,
    direct_action: undefined,
    replanning: undefined,
    finalize: ({ prompt }) => {
      // The final answer's prompt has the steps, not the conversation: the date typed is there.
      const typed = usDate(/Steps taken:\n([\s\S]*?)(?:\n\n|$)/.exec(prompt)?.[1] ?? '');
      return { answer: addedWith(typed) };
    },
  }),
};
