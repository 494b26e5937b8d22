import { describe, expect, it } from 'vitest';
import { capturedLines, createTestApp, DIALECTS, seedServiceProvider, seedUser } from '../../test/harness.ts';
import { createAccessCode } from './access-codes.ts';
import { issueCode } from './codes.ts';
import { noteSecretChange, SECRET_FINGERPRINT_KEY, secretFingerprint } from './secret-change.ts';

const OLD_SECRET = 'frontdoor-old-secret-0123456789abcdef-0123';
const NEW_SECRET = 'frontdoor-new-secret-0123456789abcdef-4567';

describe.each(DIALECTS)('noteSecretChange ($dialect)', ({ dialect, skip }) => {
  it.skipIf(skip)(
    "a start whose SECRET is not the one the codes were made under says so in one error line with the live codes' count, once; the same SECRET says nothing",
    async () => {
      const t = await createTestApp(dialect);
      try {
        const { lines, logger } = capturedLines('info');
        const start = (secret: string) =>
          noteSecretChange({ ...t.ctx, config: { ...t.ctx.config, secret }, logger });
        // the first start records its SECRET and has nothing to say
        await start(OLD_SECRET);
        await start(OLD_SECRET);
        expect(lines).toEqual([]);
        // codes made under it: two access codes (one revoked), one mailed code
        await seedServiceProvider(t);
        const pupil = await seedUser(t, { email: 'pupil@school.test' });
        const made = { ...t.ctx, config: { ...t.ctx.config, secret: OLD_SECRET } };
        await createAccessCode(made, { spId: 'mathworld', userId: pupil.id });
        const revoked = await createAccessCode(made, { spId: 'mathworld', userId: pupil.id });
        await t.db
          .updateTable('access_codes')
          .set({ revoked_at: t.clock.now() })
          .where('id', '=', revoked.id)
          .execute();
        await t.db.transaction().execute((trx) => issueCode(trx, OLD_SECRET, pupil, 'reset', t.clock.now()));

        await start(NEW_SECRET);
        expect(lines).toEqual([
          expect.objectContaining({
            level: 50,
            setting: 'SECRET',
            liveAccessCodes: 1,
            liveMailedCodes: 1,
            msg: expect.stringMatching(
              /^SECRET is not the one the last start ran with: the 1 live access codes and 1 mailed codes .* Put the old SECRET back .* Sessions are not affected$/,
            ),
          }),
        ]);
        // a fingerprint, never SECRET nor a plain hash of it
        const row = await t.db
          .selectFrom('identity_keys')
          .select('material')
          .where('name', '=', SECRET_FINGERPRINT_KEY)
          .executeTakeFirstOrThrow();
        expect(JSON.parse(row.material)).toBe(secretFingerprint(NEW_SECRET));
        expect(row.material).not.toContain(NEW_SECRET);
        // said at the one start after the change
        await start(NEW_SECRET);
        expect(lines).toHaveLength(1);
        // an instance started with the old SECRET again says it again: the two disagree
        await start(OLD_SECRET);
        expect(lines).toHaveLength(2);
      } finally {
        await t.close();
      }
    },
  );
});
