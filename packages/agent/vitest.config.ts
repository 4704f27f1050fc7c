import { vitestConfig } from '../../vitest.shared';

export default vitestConfig(import.meta.dirname);
