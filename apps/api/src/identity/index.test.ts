import { describe, expect, it } from 'vitest';
import type { DestinationStream } from 'pino';
import type { Env } from '../config.ts';
import { createLogger } from '../services/logger.ts';
import { createTestApp } from '../../test/harness.ts';

/** The warn lines an app writes while it starts with `env`. */
async function startWarnings(env: Env) {
  const lines: string[] = [];
  const destination: DestinationStream = { write: (line) => void lines.push(line) };
  const t = await createTestApp('sqlite', { env, logger: createLogger({ level: 'warn', destination }) });
  await t.close();
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('the identity engine at start', () => {
  it('warns once, naming the providers without credentials and what to set, when no dev identity provider stands in', async () => {
    const warnings = await startWarnings({
      DEV_IDP: 'off',
      GOOGLE_CLIENT_ID: 'google-client',
      GOOGLE_CLIENT_SECRET: 'google-secret',
    });
    expect(warnings).toEqual([
      expect.objectContaining({
        msg: 'identity providers without credentials: their sign-in ends on "Sign-in could not continue"',
        providers: ['Microsoft', 'MicrosoftPersonal', 'SignInWithApple', 'Clever', 'ClassLink'],
        variables: [
          'MICROSOFT_CLIENT_ID',
          'MICROSOFT_PERSONAL_CLIENT_ID',
          'APPLE_CLIENT_ID',
          'CLEVER_CLIENT_ID',
          'CLASSLINK_CLIENT_ID',
        ],
      }),
    ]);
  });

  it('says nothing in development, where the dev identity provider stands in for every provider', async () => {
    expect(await startWarnings({})).toEqual([]);
  });
});
