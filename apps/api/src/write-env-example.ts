import { writeFileSync } from 'node:fs';
import { ENV_EXAMPLE_FILE, renderEnvExample } from './env-file.ts';

/** `npm run env:example`: writes .env.example from the list of variables (env-file.test.ts checks it). */
writeFileSync(ENV_EXAMPLE_FILE, renderEnvExample());
console.info(`wrote ${ENV_EXAMPLE_FILE}`);
