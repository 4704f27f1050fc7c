import { tandem } from '@tandem/eslint-config';

export default tandem({ kind: 'package', maxFunctionLines: 80 });
