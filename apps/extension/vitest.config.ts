import { vitestConfig } from '../../vitest.shared';

export default vitestConfig(import.meta.dirname, { include: ['src/**/*.test.ts'] });
