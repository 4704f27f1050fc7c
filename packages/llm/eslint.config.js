import { tandem } from '@tandem/eslint-config';

export default tandem({ kind: 'package' });
