import { tandem } from '@tandem/eslint-config';

// The agent is where most new work lands: functions stay short enough to read whole.
export default tandem({ kind: 'package', maxFunctionLines: 80 });
