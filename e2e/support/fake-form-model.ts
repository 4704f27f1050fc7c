// The fake model's default scenarios: the EMR's new patient ("… patient …": Jas Patel, saved
// at the plan's last step, which names no element so that action generation decides it; the
// call the Stop and server-trouble tests hold) and the request form (every field in one chain,
// then Submit). Like a model, it reads the element ids from the prompt.
import {
  act,
  elementsIn,
  named,
  USUAL_ANSWERS,
  verdict,
  type Answers,
} from '@tandem/agent/testing/model-double';

/** The request form's five fields as the chain fills them: label, role code, value. */
export const FORM_FIELDS: [label: string, role: string, value: string][] = [
  ['Full name', 'inp', 'Ann Lee'],
  ['Email', 'inp', 'ann@example.com'],
  ['Reason for visit', 'sel', 'Follow-up'],
  ['Phone', 'radio', ''],
  ['Notes', 'txt', 'Please call after 5pm'],
];

const byName = (prompt: string, name: string, role?: string) =>
  named(elementsIn(prompt), name, role)[0];

const isPatient = (goal: string) => /patient/i.test(goal);

const PATIENT_PLAN = [
  { description: "Click 'Patients'", refinable: true },
  { description: "Click 'New/Search'", refinable: true },
  { description: 'Type Jas into First name', refinable: true },
  { description: 'Type Patel into Last name', refinable: true },
  { description: 'Save the new patient', refinable: false },
];

const FORM_PLAN = [
  { description: 'Fill in the request form fields', refinable: false },
  { description: "Click 'Submit request'", refinable: true },
];

/** Save when the page lists it, else scroll towards it. */
function savePatient(prompt: string): unknown {
  const save = byName(prompt, 'Save');
  if (save && !save.occluded) return act('Save the patient.', `click("${save.id}")`);
  return act('The Save button is below the fold; scroll to it.', 'scroll("down")', {
    confidence: 0.8,
  });
}

/** Every field in one chain (fields already holding their value are skipped), then Submit. */
function fillForm(prompt: string): unknown {
  const chain: { action: string; description: string }[] = [];
  for (const [label, role, value] of FORM_FIELDS) {
    const el = byName(prompt, label, role);
    if (!el || el.occluded) continue;
    if (el.role === 'radio' || el.role === 'chk') {
      if (!el.states.includes('checked'))
        chain.push({ action: `click("${el.id}")`, description: label });
    } else if (el.value.toLowerCase() !== value.toLowerCase()) {
      chain.push({
        action:
          el.role === 'sel'
            ? `select("${el.id}", "${value}")`
            : `setValue("${el.id}", ${JSON.stringify(value)})`,
        description: label,
      });
    }
  }
  const submit = byName(prompt, 'Submit request');
  if (chain.length === 0 && submit)
    return act('Every field is filled; submit.', `click("${submit.id}")`);
  if (chain.length === 0) return act('The request was submitted.', 'finish("Request submitted")');
  return act('Fill the form fields in one go.', chain[0]?.action ?? '', {
    chain: chain.length > 1 ? chain : null,
  });
}

function verify(prompt: string): unknown {
  const done = /saved successfully|received your request|Request submitted/i.test(prompt);
  const failed = /Saving…|spinner/i.test(prompt) && !done;
  const reason = done
    ? 'The success message is shown.'
    : failed
      ? 'Still saving.'
      : 'The action took effect.';
  return { ...verdict(done, reason), action_succeeded: !failed };
}

/** A SIMPLE command ("click Save"): the element it names, unless it is missing or covered. */
function directAction(prompt: string): unknown {
  const target = /Command: (?:click|press|open) (.*)/i.exec(prompt)?.[1]?.trim() ?? '';
  const el = byName(prompt, target);
  if (!el)
    return {
      thought: `There is no "${target}" on the page.`,
      action: `fail("No element named ${target}")`,
    };
  if (el.occluded)
    return {
      thought: `"${target}" is covered by a dialog.`,
      action: `fail("${target} is covered by another element (occluded)")`,
    };
  return { thought: `Click ${target}.`, action: `click("${el.id}")` };
}

/** Like a model would: the goal as done, with what the page confirmed. */
function finalAnswer(prompt: string, goal: string): unknown {
  const confirmed = /saved successfully|received your request/i.exec(prompt)?.[0];
  return {
    answer: isPatient(goal)
      ? `Jas Patel was added as a new patient${confirmed ? ` (the EMR says “${confirmed}”)` : ''}.`
      : `Done: ${goal}.`,
  };
}

export const FORM: Answers = {
  ...USUAL_ANSWERS,
  planning: ({ goal }) => ({ goal, steps: isPatient(goal) ? PATIENT_PLAN : FORM_PLAN }),
  action_generation: ({ prompt, goal }) =>
    isPatient(goal) ? savePatient(prompt) : fillForm(prompt),
  finalize: ({ prompt, goal }) => finalAnswer(prompt, goal),
  outcome_prediction: {
    description: 'The page responds to the action',
    urlShouldChange: false,
    nextGoal: null,
  },
  verification: ({ prompt }) => verify(prompt),
  direct_action: ({ prompt }) => directAction(prompt),
};
