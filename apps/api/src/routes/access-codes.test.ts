import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ABUSE_LIMITS, ADMIN_ROLE, messages } from '@frontdoor/contract';
import {
  DIALECTS,
  createTestApp,
  csrfCookieOf,
  seedServiceProvider,
  seedUser,
  type TestApp,
  capturedLines,
} from '../../test/harness.ts';
import { createAccessCode } from '../services/access-codes.ts';
import { browserTag } from '../services/crypto.ts';
import { runAdminCommand } from '../admin/commands.ts';

describe.each(DIALECTS)('accessCodes/login on $dialect', ({ dialect, skip }) => {
  let t: TestApp;
  beforeAll(async () => {
    if (!skip) t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  /** An app of its own whose log lines a test reads, with a product and its student's live code. */
  async function loggedApp(spId: string, email: string) {
    const { lines, logger } = capturedLines('info');
    const own = await createTestApp(dialect, { logger });
    try {
      await seedServiceProvider(own, spId, ['https://app.guessed.test']);
      const student = await seedUser(own, { email });
      const { code: live } = await createAccessCode(own.ctx, { spId, userId: student.id });
      return { own, lines, live };
    } catch (err) {
      await own.close();
      throw err;
    }
  }

  it.skipIf(skip)(
    'takes the code in Arabic-Indic or Persian digits, as a phone set to Arabic or Persian types it',
    async () => {
      const spId = 'digits-sp';
      await seedServiceProvider(t, spId, ['https://app.digits.test']);
      const student = await seedUser(t, { email: 'digits@school.test' });
      const { code } = await createAccessCode(t.ctx, { spId, userId: student.id });
      for (const zero of [0x660, 0x6f0]) {
        const typed = code.replace(/\d/g, (d) => String.fromCharCode(zero + Number(d)));
        const res = await t.client().get(`/api/accessCodes/login/${encodeURIComponent(typed)}/${spId}`);
        expect(res.statusCode).toBe(200);
        expect(res.json().payload.sp_id).toBe(spId);
      }
    },
  );

  it.skipIf(skip)(
    'a code that is not six digits, however long, is a 400 accessCodeLength; another site is refused first',
    async () => {
      await seedServiceProvider(t, 'length-sp', ['https://app.length.test']);
      for (const code of ['12345', '1234567', '1'.repeat(101), '1'.repeat(5000)]) {
        const res = await t.client().get(`/api/accessCodes/login/${code}/length-sp`);
        expect(res.statusCode, `${code.length} digits`).toBe(400);
        expect(res.json(), `${code.length} digits`).toEqual({
          status: 'error',
          msg: messages.accessCodeLength,
          code: 'accessCodeLength',
        });
      }
      // the cross-site check comes before any look at the code: a bad one does not get past it
      const crossSite = await t
        .client()
        .get(`/api/accessCodes/login/${'1'.repeat(5000)}/length-sp`, { 'sec-fetch-site': 'cross-site' });
      expect(crossSite.statusCode).toBe(403);
      expect(crossSite.json().code).toBe('crossSiteRequest');
    },
  );

  it.skipIf(skip)(
    "a browser that keeps no cookies (the portal's page, no fd_csrf at all) is told so before any code is looked at: it could redeem no hash",
    async () => {
      const spId = 'no-cookies-sp';
      await seedServiceProvider(t, spId, ['https://app.no-cookies.test']);
      const student = await seedUser(t, { email: 'no-cookies@school.test' });
      const { code } = await createAccessCode(t.ctx, { spId, userId: student.id });
      const sameOrigin = { 'sec-fetch-site': 'same-origin' };
      for (const typed of [code, '000000']) {
        const res = await t.client().get(`/api/accessCodes/login/${typed}/${spId}`, sameOrigin);
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ status: 'error', msg: messages.cookiesBlocked, code: 'cookiesBlocked' });
      }
      // nothing was looked up: no sign-in and no failure in the audit log
      const audited = await t.db
        .selectFrom('audit_log')
        .select('event')
        .where('user_id', '=', student.id)
        .execute();
      expect(audited).toEqual([]);
      // a browser that keeps its cookie, or a client that is no browser, goes on
      const browser = t.client();
      await browser.get('/api/auth/sig');
      expect((await browser.get(`/api/accessCodes/login/${code}/${spId}`, sameOrigin)).statusCode).toBe(200);
      expect((await t.client().get(`/api/accessCodes/login/${code}/${spId}`)).statusCode).toBe(200);
    },
  );

  it.skipIf(skip)(
    'never signs in an administrator: the admin CLI refuses to make the code, and one made before the role opens nothing',
    async () => {
      await seedServiceProvider(t, 'admin-sp', ['https://app.admin-sp.test']);
      const admin = await seedUser(t, { email: 'head@school.test', roles: { [ADMIN_ROLE]: [1] } });
      await expect(
        runAdminCommand(t.ctx, ['access-code', 'create'], { sp: 'admin-sp', email: admin.email }),
      ).rejects.toThrow(/head@school.test is an administrator/);

      const promoted = await seedUser(t, { email: 'promoted@school.test' });
      const { code } = await createAccessCode(t.ctx, { spId: 'admin-sp', userId: promoted.id });
      await t.db
        .updateTable('users')
        .set({ roles: JSON.stringify({ [ADMIN_ROLE]: [1] }) })
        .where('id', '=', promoted.id)
        .execute();
      const res = await t.client().get(`/api/accessCodes/login/${code}/admin-sp`);
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('accessCodeNotFound');
    },
  );

  it.skipIf(skip)(
    'a browser guessing class codes is named once in a warn line, long before the address limit; every wrong code names its browser by a tag, never its cookie or the code',
    async () => {
      const spId = 'guessed-sp';
      const { own, lines, live } = await loggedApp(spId, 'guessed@school.test');
      try {
        const guesses = Array.from({ length: 15 }, (_, i) => String(100000 + i * 7919));
        expect(guesses).not.toContain(live);
        // one browser guesses 12 times; three pupils behind the same address each mistype once
        const guesser = own.client();
        await guesser.get('/api/auth/sig');
        const pupils = [own.client(), own.client(), own.client()];
        for (const pupil of pupils) await pupil.get('/api/auth/sig');
        const browsers = [...Array<typeof guesser>(12).fill(guesser), ...pupils];
        for (const [i, browser] of browsers.entries()) {
          const res = await browser.get(`/api/accessCodes/login/${guesses[i]}/${spId}`);
          expect(res.statusCode).toBe(404);
        }
        const tokens = [guesser, ...pupils].map((c) => csrfCookieOf(c.cookies) ?? '');
        const [guesserTag, ...pupilTags] = tokens.map((token) => browserTag(own.ctx.config.secret, token));

        const warnings = lines.filter((l) => l.msg === 'many wrong class codes from one browser');
        expect(warnings).toEqual([
          expect.objectContaining({
            level: 40,
            spId,
            browser: guesserTag,
            wrongCodes: ABUSE_LIMITS.browserCodeFailuresWarnPerHour,
            address: '127.0.0.1',
          }),
        ]);
        // every wrong code's line names its browser: the guesser's twelve, each pupil's one
        const refused = lines.filter((l) => l.code === 'accessCodeNotFound').map((l) => l.browser);
        expect(refused).toEqual([...Array<string>(12).fill(guesserTag ?? ''), ...pupilTags]);
        expect(new Set(refused).size).toBe(4);
        // the address limit is far off: nothing refused, nothing else warned
        expect(lines.filter((l) => Number(l.level) >= 40)).toHaveLength(1);
        const text = JSON.stringify(lines);
        for (const secret of [...tokens, ...guesses])
          expect(text).not.toMatch(new RegExp(`(?<![\\w-])${secret}(?![\\w-])`));
      } finally {
        await own.close();
      }
    },
  );

  it.skipIf(skip)(
    "a guesser who types their own code between guesses is named all the same: only the hour's first right code starts the count again",
    async () => {
      const spId = 'guessed-between';
      const { own, lines, live } = await loggedApp(spId, 'between@school.test');
      try {
        const guesser = own.client();
        await guesser.get('/api/auth/sig');
        let next = 100000;
        const wrongCode = () => {
          next += 7919;
          return String(next === Number(live) ? (next += 7919) : next);
        };
        // three rounds of nine wrong codes, each ended by the guesser's own right code
        for (let round = 0; round < 3; round++) {
          for (let i = 0; i < 9; i++)
            expect((await guesser.get(`/api/accessCodes/login/${wrongCode()}/${spId}`)).statusCode).toBe(404);
          expect((await guesser.get(`/api/accessCodes/login/${live}/${spId}`)).statusCode).toBe(200);
        }
        expect(lines.filter((l) => l.msg === 'many wrong class codes from one browser')).toHaveLength(1);
      } finally {
        await own.close();
      }
    },
  );
});
