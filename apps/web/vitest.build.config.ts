import { webProject } from './vitest.config.ts';

/** The build's own tests (bundling, prerendering, compression), each file in a process of its own. */
export default webProject({ name: 'web-build', include: ['build/**/*.test.ts'] });
