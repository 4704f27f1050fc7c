// Missing information in action generation (docs/specs.md, "dynamic interrupt"): an answer that
// reports a value it does not have is searched for, asked of the user, or refused (missing-info.ts).
import { turnUpdate, thoughtOf, type ActionPart } from '../nodes/action-generation/part';
import { logFor } from '../nodes/node-context';
import { googleSearch } from '../web-search/action-part';
import { routeMissingInfo } from './missing-info';

export const missingInfoPart: ActionPart = {
  name: 'missing-info',
  answer(deps, turn) {
    const items = turn.out.missingInfo;
    if (!items || items.length === 0) return null;
    return {
      decide: (now) => {
        const route = routeMissingInfo(deps, now.state, items, thoughtOf(now));
        logFor(deps, now.state, 'action_generation').info('missing information', {
          missing: items.map((i) => `${i.kind}: ${i.what}`),
          route: route.kind,
        });
        if (route.kind === 'search') return googleSearch(deps, now, route.query);
        if (route.kind === 'refuse') return { rejected: route.reason };
        return { ...turnUpdate(now), ...route.update };
      },
    };
  },
};
