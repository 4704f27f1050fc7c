// The skills library in action generation (docs/specs.md, "episodic memory"): lessons learned on
// this site are shown with the prompt, and the action they were shown for keeps their ids, so
// its verification scores them.
import type { ActionPart } from '../nodes/action-generation/part';
import { skillsFor } from './lessons';

export const skillsPart: ActionPart = {
  name: 'skills',
  async prepare(deps, state, page) {
    const skills = await skillsFor(deps, state, page.url);
    const shown = skills.ids.length > 0 || state.skillHintIds.length > 0;
    return {
      sections: () => ({ skills: skills.text }),
      accepted: () => (shown ? { skillHintIds: skills.ids } : {}),
    };
  },
};
