import { tandem } from '@tandem/eslint-config';

// The same budget as the agent this code came from: functions stay short enough to read whole.
export default tandem({ kind: 'package', maxFunctionLines: 80 });
