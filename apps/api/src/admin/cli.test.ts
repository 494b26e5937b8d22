import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ABUSE_LIMITS,
  MASQUERADE_TTL_MS,
  PRODUCT_JWKS_PATH,
  SUBSCRIPTION_IDS,
  messages,
  sessionSchema,
} from '@frontdoor/contract';
import {
  DIALECTS,
  basicAuth,
  capturedLines,
  createTestApp,
  createTestDb,
  lastMail,
  seedServiceProvider,
  seedUser,
  signedInClient,
  type TestApp,
} from '../../test/harness.ts';
import {
  COMMANDS,
  HELP,
  UsageError,
  formatResult,
  helpFor,
  parseAdminArgs,
  runAdminCommand,
} from './commands.ts';
import { RELEASE_MIGRATIONS, createDb, executedMigrations, migrateTo } from '../db/index.ts';
import { createAccessCode } from '../services/access-codes.ts';
import { audit } from '../services/audit.ts';
import { createInvite } from '../services/invites.ts';
import { listMailbox } from '../services/mailbox.ts';
import { MasqueradeRefused } from '../services/masquerade.ts';
import { OUTBOX_RETRY } from '../services/outbox.ts';
import { verifyPassword, findUserByEmail } from '../services/users.ts';
import { RETENTION_MS } from '../services/pruning.ts';
import {
  forgetInstance,
  INSTANCE_HEARTBEAT_MS,
  INSTANCE_LIVE_MS,
  noteInstance,
  noteSecretChange,
  SECRET_FINGERPRINT_KEY,
  secretFingerprint,
} from '../services/secret-change.ts';
import { createSession, replaceSession } from '../services/sessions.ts';
import { databaseLocation } from '../startup-failure.ts';
import { TEST_DATABASE_URL, TEST_SECRET } from '../../test/test-db.ts';

const PW = 'Admin-Created-Passw0rd';

describe.each(DIALECTS)('admin commands on $dialect', ({ dialect, skip }) => {
  let t: TestApp;
  /** What --set-password reads, as a person would type it or pipe it on stdin. */
  let typed = PW;
  const run = async (...argv: string[]) => {
    const { positionals, values } = parseAdminArgs(argv);
    return runAdminCommand({ ...t.ctx, readPassword: async () => typed }, positionals, values);
  };
  beforeAll(async () => {
    if (!skip) t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  it.skipIf(skip)(
    'realm set keys a domain as an address spells it (its xn-- form), so the override holds however the address is typed',
    async () => {
      // typed decomposed: u and a combining diaeresis
      expect(
        await run('realm', 'set', '--domain', 'Schule-Mu\u0308llheim.de', '--type', 'Federated'),
      ).toEqual({
        domain: 'xn--schule-mllheim-nsb.de',
        accountType: 'Federated',
      });
      for (const email of ['a@schule-müllheim.de', 'a@xn--schule-mllheim-nsb.de', 'a@ｓchule-müllheim.de']) {
        const realm = await t.client().post('/api/v2/auth/microsoft-user-realm', { email });
        expect(realm.json().payload, email).toMatchObject({ accountType: 'Federated' });
      }
    },
  );

  it.skipIf(skip)(
    'user create, invite create and user find spell a look-alike domain as its mail is sent',
    async () => {
      // typed with a full-width s, as Chromium's email field never sends it
      const { id } = await run(
        'user',
        'create',
        '--email',
        'ana@ｓchool.example',
        '--first',
        'Ana',
        '--last',
        'L',
      );
      expect(await findUserByEmail(t.db, 'ana@school.example')).toMatchObject({ id });
      for (const typed of ['ana@school.example', 'ana@ｓchool.example', 'ana@school\uFE00.example'])
        expect(await run('user', 'find', '--email', typed)).toMatchObject({ accounts: [{ id }] });
      expect(await run('user', 'show', '--email', 'ana@ſchool.example')).toMatchObject({ id });
      const { code } = await run('invite', 'create', '--email', 'bo@ｓchool.example');
      const invite = await t.db
        .selectFrom('invites')
        .select('email')
        .where('code', '=', String(code))
        .executeTakeFirstOrThrow();
      expect(invite.email).toBe('bo@school.example');
      await expect(
        run('user', 'create', '--email', 'ana@xn--zz.example', '--first', 'A', '--last', 'L'),
      ).rejects.toThrow('--email: not a valid email address');
    },
  );

  it.skipIf(skip)(
    'creates a service provider, a login request, users, an invite and an access code that work through the API',
    async () => {
      const sp = await run(
        'sp',
        'create',
        '--id',
        'cli-sp',
        '--name',
        'CLI Learning',
        '--origin',
        'https://cli.test/',
        '--origin',
        'https://cli2.test',
      );
      expect(sp).toMatchObject({
        sp_id: 'cli-sp',
        clientId: expect.any(String),
        clientSecret: expect.any(String),
      });

      const { csrf } = await run(
        'login',
        'create',
        '--sp',
        'cli-sp',
        '--url',
        'https://cli2.test/start',
        '--teacher',
      );
      expect((await t.client().get(`/api/gateway/getCsrfLogin/${String(csrf)}`)).json().payload).toEqual({
        url: 'https://cli2.test/start',
        isTeacher: true,
        sp_id: 'cli-sp',
      });

      const { id } = await run(
        'user',
        'create',
        '--email',
        'Teacher@CLI.test',
        '--set-password',
        '--first',
        'Tea',
        '--last',
        'Cher',
        '--role',
        'teacher:1,2',
        '--role',
        'beta',
      );
      const user = await findUserByEmail(t.db, 'teacher@cli.test');
      expect(user?.id).toBe(id);
      expect(await verifyPassword(user?.password_hash ?? null, PW)).toBe(true);
      expect(JSON.parse(user?.roles ?? '')).toEqual({ teacher: [1, 2], beta: [] });

      await run('user', 'create', '--email', 'pending@cli.test', '--first', 'P', '--last', 'Q');
      await run(
        'user',
        'create',
        '--email',
        'unconf@cli.test',
        '--set-password',
        '--first',
        'U',
        '--last',
        'C',
        '--unconfirmed',
      );
      await run(
        'user',
        'create',
        '--email',
        'mustreset@cli.test',
        '--set-password',
        '--first',
        'M',
        '--last',
        'R',
        '--must-reset',
      );
      for (const [email, status] of [
        ['pending@cli.test', 'verify'],
        ['unconf@cli.test', 'unconfirmed'],
        ['mustreset@cli.test', 'reset-password'],
      ]) {
        expect((await t.client().post('/api/auth/validateEmail', { email })).json().payload).toBe(status);
      }

      const { code: invite, link } = await run('invite', 'create', '--email', 'invitee@cli.test');
      expect(
        (await t.client().get(`/api/devportal/getInviteEmail/${String(invite)}`)).json().payload.email,
      ).toBe('invitee@cli.test');
      const { messages } = await run('mailbox', 'list', '--to', 'invitee@cli.test');
      // no --language: the page opens in the browser's language, not pinned to the mail's English;
      // the command names the link as mailed, so an operator sees which origin it carries
      expect(link).toBe(`http://localhost:8080/invite/${String(invite)}`);
      expect(JSON.stringify(messages)).toContain(`${String(link)}\\n`);
      expect(JSON.stringify(messages)).not.toContain('locale=');
      // a region tag is its language
      const brazilInvite = await run('invite', 'create', '--email', 'brazil@cli.test', '--language', 'pt-BR');
      expect(brazilInvite.link).toBe(`http://localhost:8080/invite/${String(brazilInvite.code)}?locale=pt`);
      const brazil = await run('mailbox', 'list', '--to', 'brazil@cli.test');
      expect(JSON.stringify(brazil.messages)).toContain(String(brazilInvite.link));
      // a language the mails are not written in was mailed in English without a word
      await expect(run('invite', 'create', '--email', 'other@cli.test', '--language', 'xx')).rejects.toThrow(
        '--language must be one of en, es, fr, pt, zh, ar, de, got xx',
      );
      await expect(
        run('invite', 'create', '--email', 'other@cli.test', '--language', 'constructor'),
      ).rejects.toThrow('--language must be one of');

      const {
        code,
        id: codeId,
        expiresAt,
      } = await run(
        'access-code',
        'create',
        '--sp',
        'cli-sp',
        '--email',
        'pending@cli.test',
        '--ttl-days',
        '3',
      );
      expect(Date.parse(String(expiresAt)) - t.clock.now()).toBe(3 * 24 * 60 * 60 * 1000);
      expect(
        (await t.client().get(`/api/accessCodes/login/${String(code)}/cli-sp`)).json().payload.sp_id,
      ).toBe('cli-sp');
      expect((await run('access-code', 'list', '--sp', 'cli-sp')).codes).toEqual([
        expect.objectContaining({ id: codeId, email: 'pending@cli.test', state: 'live' }),
      ]);
      expect(await run('access-code', 'budget', '--sp', 'cli-sp')).toMatchObject({
        liveCodes: 1,
        budget: 10_000,
        failures: 0,
        inFlight: 0,
      });
      expect(await run('access-code', 'revoke', '--id', String(codeId))).toEqual({ revoked: 1 });
      expect((await t.client().get(`/api/accessCodes/login/${String(code)}/cli-sp`)).statusCode).toBe(404);
      // the revocation names the pupil and the provider, so the pupil's own audit list shows it
      const pupil = await findUserByEmail(t.db, 'pending@cli.test');
      const revocations = (await run('audit', 'list', '--event', 'access-code.revoked')).entries;
      expect(revocations).toEqual([
        expect.objectContaining({ user_id: pupil?.id, sp_id: 'cli-sp', detail: { id: codeId } }),
      ]);
      expect((await run('audit', 'list', '--id', String(pupil?.id))).entries).toContainEqual(
        expect.objectContaining({ event: 'access-code.revoked' }),
      );

      await t.db.updateTable('users').set({ locked_at: t.clock.now(), failed_attempts: 100 }).execute();
      expect(await run('user', 'unlock', '--email', 'unconf@cli.test')).toEqual({ unlocked: true });
      expect(await run('user', 'unlock', '--email', 'unconf@cli.test')).toEqual({ unlocked: false });

      expect(await run('realm', 'set', '--domain', 'CLI.test', '--type', 'Federated')).toEqual({
        domain: 'cli.test',
        accountType: 'Federated',
      });
      expect(
        (await t.client().post('/api/v2/auth/microsoft-user-realm', { email: 'x@cli.test' })).json().payload
          .accountType,
      ).toBe('Federated');
    },
  );

  it.skipIf(skip)(
    'masquerade: an administrator only, never as an administrator, for 1 hour, each step in the audit log',
    async () => {
      const create = (address: string, ...role: string[]) =>
        run('user', 'create', '--email', address, '--set-password', '--first', 'M', '--last', 'Q', ...role);
      const { id: bossId } = await create('boss@cli.test', '--role', 'admin:1');
      const { id: chiefId } = await create('chief@cli.test', '--role', 'admin');
      const { id: kidId } = await create('kid@cli.test');
      const { id: teacherId } = await create('teach@cli.test', '--role', 'teacher:1');
      const boss = await signedInClient(t, String(bossId));
      await signedInClient(t, String(kidId));
      const sig = async () => {
        const view = sessionSchema.parse((await boss.get('/api/auth/sig')).json());
        if (!view.loggedin) throw new Error('the administrator was signed out');
        const claims = JSON.parse(
          Buffer.from(view.payload.token.split('.')[1] ?? '', 'base64url').toString(),
        );
        return { masq: view.payload.signature.masq?.email, exp: (claims as { exp: number }).exp };
      };
      const masquerade = (admin: string, as: string) =>
        run('masquerade', 'start', '--admin', admin, '--as', as);

      await expect(masquerade('kid@cli.test', 'teach@cli.test')).rejects.toThrow(MasqueradeRefused);
      await expect(masquerade('kid@cli.test', 'teach@cli.test')).rejects.toThrow(/only an administrator/);
      await expect(masquerade('boss@cli.test', 'chief@cli.test')).rejects.toThrow(/as an administrator/);
      await expect(masquerade('boss@cli.test', 'boss@cli.test')).rejects.toThrow(/itself/);
      expect((await sig()).masq).toBeUndefined();

      const endsAt = t.clock.now() + MASQUERADE_TTL_MS;
      expect(await masquerade('boss@cli.test', 'kid@cli.test')).toEqual({
        sessions: 1,
        endsAt: new Date(endsAt).toISOString(),
      });
      expect((await sig()).masq).toBe('kid@cli.test');
      t.clock.advance(MASQUERADE_TTL_MS / 2);
      expect((await sig()).masq).toBe('kid@cli.test');
      t.clock.advance(MASQUERADE_TTL_MS / 2 - 1000);
      // the product token of a masquerade ends with it
      expect(await sig()).toEqual({ masq: 'kid@cli.test', exp: Math.floor(endsAt / 1000) });
      t.clock.advance(1000);
      expect((await sig()).masq).toBeUndefined();

      await masquerade('boss@cli.test', 'kid@cli.test');
      expect(await run('masquerade', 'stop', '--admin', 'boss@cli.test')).toEqual({ sessions: 1 });
      expect((await sig()).masq).toBeUndefined();
      await masquerade('boss@cli.test', 'kid@cli.test');
      await t.db.updateTable('users').set({ roles: '{}' }).where('id', '=', String(bossId)).execute();
      // losing the role ends a masquerade under way
      expect((await sig()).masq).toBeUndefined();

      const audited = async (event: string) =>
        (await run('audit', 'list', '--event', event, '--limit', '100')).entries as {
          user_id: string | null;
          detail: Record<string, unknown>;
        }[];
      expect((await audited('masquerade.refused')).map((e) => [e.user_id, e.detail]).reverse()).toEqual([
        [kidId, { as: teacherId, reason: 'not-administrator' }],
        [kidId, { as: teacherId, reason: 'not-administrator' }],
        [bossId, { as: chiefId, reason: 'administrator' }],
        [bossId, { as: bossId, reason: 'self' }],
      ]);
      expect((await audited('masquerade.started')).map((e) => [e.user_id, e.detail.as])).toEqual([
        [bossId, kidId],
        [bossId, kidId],
        [bossId, kidId],
      ]);
      expect((await audited('masquerade.stopped')).map((e) => [e.user_id, e.detail])).toEqual([
        [bossId, { sessions: 1 }],
      ]);
      // what a family asking about the kid's account reads: each masquerade as it, under the
      // administrator's id, and each command that named it
      const aboutKid = (
        (await run('audit', 'list', '--id', String(kidId), '--limit', '100')).entries as {
          event: string;
          user_id: string | null;
        }[]
      ).map((e) => [e.event, e.user_id]);
      expect(aboutKid.filter(([event]) => event === 'masquerade.started')).toEqual([
        ['masquerade.started', bossId],
        ['masquerade.started', bossId],
        ['masquerade.started', bossId],
      ]);
      // its user create, the three masquerades as it, and the two it was named the administrator of
      expect(aboutKid.filter(([event]) => event === 'admin.command')).toHaveLength(6);
      // and nothing that names only someone else
      expect(aboutKid).not.toContainEqual(['masquerade.refused', bossId]);
      const commands = (await audited('admin.command')).map((e) => e.detail);
      expect(commands).toContainEqual({
        command: 'masquerade start',
        options: { admin: { userId: kidId }, as: { userId: teacherId } },
        ok: false,
      });
      expect(commands).toContainEqual({
        command: 'user create',
        options: {
          email: { userId: bossId },
          'set-password': true,
          first: true,
          last: true,
          role: ['admin:1'],
        },
        ok: true,
      });
      const text = JSON.stringify(commands);
      for (const secret of [PW, 'boss@cli.test', 'kid@cli.test']) expect(text).not.toContain(secret);
    },
  );

  it.skipIf(skip)(
    'keys rotate: a new key is published, saying when it signs; the replaced one stays published',
    async () => {
      const first = await run('keys', 'rotate');
      const second = await run('keys', 'rotate');
      expect(second.kid).not.toBe(first.kid);
      expect(first.published).toContain(first.kid);
      expect(second.published).toEqual([second.kid, ...(first.published as string[])]);
      expect(Date.parse(second.signsFrom as string)).toBeGreaterThan(t.clock.now());
      const jwks = (await t.client().get(PRODUCT_JWKS_PATH)).json() as { keys: { kid: string }[] };
      expect(jwks.keys.map((k) => k.kid)).toEqual(second.published);
    },
  );

  it.skipIf(skip)(
    'user create --set-password refuses a common password and one with the name or email',
    async () => {
      const create = (address: string, password: string) => {
        typed = password;
        return run(
          'user',
          'create',
          '--email',
          address,
          '--set-password',
          '--first',
          'Wanda',
          '--last',
          'Kowalski',
        );
      };
      await expect(create('common@cli.test', 'Password123!')).rejects.toThrow(messages.passwordCommon);
      await expect(create('named@cli.test', 'Wanda-Sunrise-42')).rejects.toThrow(messages.passwordPersonal);
      await expect(create('sunrise@cli.test', 'Sunrise!Meadow42')).rejects.toThrow(UsageError);
      for (const address of ['common@cli.test', 'named@cli.test', 'sunrise@cli.test'])
        expect(await findUserByEmail(t.db, address)).toBeUndefined();
    },
  );

  it.skipIf(skip)('prune deletes rows dead past their retention and counts them per table', async () => {
    const sent = (sentAt: number) =>
      t.db
        .insertInto('mailbox')
        .values({ to_address: 'old@cli.test', subject: 's', text: 't', html: 'h', sent_at: sentAt })
        .execute();
    await sent(t.clock.now() - RETENTION_MS.mailbox - 1);
    await sent(t.clock.now());
    const counts = await run('prune');
    expect(counts).toMatchObject({ sessions: expect.any(Number), audit_log: expect.any(Number) });
    expect(counts.mailbox).toBeGreaterThanOrEqual(1);
    expect((await run('mailbox', 'list', '--to', 'old@cli.test')).messages).toHaveLength(1);
  });

  it.skipIf(skip)(
    'outbox retry queues again what failed at the attempt limit, all or one row, with fresh attempts; nothing else, and says so of a row named',
    async () => {
      const row = (failedAt: number | null, payload: string | null = '{"deleted":true}') => ({
        kind: 'crm',
        user_id: null,
        payload,
        attempts: failedAt === null ? 1 : OUTBOX_RETRY.maxAttempts,
        next_attempt_at: null,
        last_error: 'HTTP 503',
        created_at: t.clock.now(),
        delivered_at: failedAt === null ? t.clock.now() : null,
        failed_at: failedAt,
      });
      const ids = await t.db
        .insertInto('outbox')
        .values([row(t.clock.now()), row(t.clock.now()), row(null, null)])
        .returning('id')
        .execute();
      const [first, second, delivered] = ids.map(({ id }) => id);
      const state = async (id: number | undefined) =>
        t.db
          .selectFrom('outbox')
          .select(['attempts', 'failed_at', 'next_attempt_at', 'last_error', 'delivered_at'])
          .where('id', '=', id ?? 0)
          .executeTakeFirstOrThrow();
      expect(await run('outbox', 'retry', '--id', String(first))).toEqual({ requeued: 1 });
      expect(await state(first)).toEqual({
        attempts: 0,
        failed_at: null,
        next_attempt_at: t.clock.now(),
        last_error: null,
        delivered_at: null,
      });
      expect((await state(second)).failed_at).toBe(t.clock.now());
      expect(await run('outbox', 'retry')).toEqual({ requeued: 1 });
      expect((await state(second)).next_attempt_at).toBe(t.clock.now());
      expect((await state(delivered)).delivered_at).toBe(t.clock.now());
      expect(await run('outbox', 'retry')).toEqual({ requeued: 0 });
      await expect(run('outbox', 'retry', '--id', 'x')).rejects.toThrow(UsageError);
      // a row named that is not there, or did not fail, is said so (exit 2), not "requeued: 0"
      await expect(run('outbox', 'retry', '--id', '99999')).rejects.toThrow('no outbox row 99999');
      await expect(run('outbox', 'retry', '--id', String(delivered))).rejects.toThrow(
        `outbox row ${delivered} has not failed: nothing to retry`,
      );
    },
  );

  it.skipIf(skip)(
    'sp list shows providers without secrets; sp rotate-secret replaces the secret at once',
    async () => {
      const created = await run(
        'sp',
        'create',
        '--id',
        'rot-sp',
        '--name',
        'Rot',
        '--origin',
        'https://rot.test',
      );
      const { providers } = await run('sp', 'list');
      expect(providers).toContainEqual({
        spId: 'rot-sp',
        name: 'Rot',
        origins: ['https://rot.test'],
        clientId: created.clientId,
        createdAt: expect.any(String),
      });
      expect(JSON.stringify(providers)).not.toContain(String(created.clientSecret));
      const rotated = await run('sp', 'rotate-secret', '--id', 'rot-sp');
      expect(rotated).toMatchObject({ sp_id: 'rot-sp', clientId: created.clientId });
      expect(rotated.clientSecret).not.toBe(created.clientSecret);
      const call = (secret: unknown) =>
        t.app.inject({
          method: 'POST',
          url: '/api/gateway/createCsrfLogin',
          headers: { authorization: basicAuth(String(created.clientId), String(secret)) },
          payload: { url: 'https://rot.test/class', isTeacher: false },
        });
      expect((await call(created.clientSecret)).statusCode).toBe(401);
      expect((await call(rotated.clientSecret)).statusCode).toBe(200);
    },
  );

  it.skipIf(skip)('user list, user show and user delete (with --yes) manage accounts', async () => {
    typed = PW;
    const { id } = await run(
      'user',
      'create',
      '--email',
      'listed@cli.test',
      '--set-password',
      '--first',
      'Lis',
      '--last',
      'Ted',
    );
    const { users } = await run('user', 'list', '--limit', '500');
    expect(users).toContainEqual(
      expect.objectContaining({ id, email: 'listed@cli.test', confirmed: true, locked: false }),
    );
    await signedInClient(t, String(id));
    await t.db
      .insertInto('subscriptions')
      .values({
        user_id: String(id),
        subscription_id: SUBSCRIPTION_IDS.k12,
        subscribed: 1,
        updated_at: t.clock.now(),
      })
      .execute();
    await seedServiceProvider(t, 'showsp');
    const { code } = await run('access-code', 'create', '--sp', 'showsp', '--email', 'listed@cli.test');
    const shown = await run('user', 'show', '--email', 'listed@cli.test');
    expect(shown).toMatchObject({
      id,
      hasPassword: true,
      liveSessions: 1,
      identities: [],
      lockedAt: null,
      description: null,
      subscriptions: [
        { id: SUBSCRIPTION_IDS.k12, subscribed: true, updatedAt: new Date(t.clock.now()).toISOString() },
      ],
      // stored here, never sent to a CRM
      crmContactAt: null,
      accessCodes: [expect.objectContaining({ spId: 'showsp' })],
    });
    expect(JSON.stringify(shown)).not.toContain('argon2');
    expect(JSON.stringify(shown)).not.toContain(String(code));
    expect(await run('user', 'delete', '--email', 'listed@cli.test', '--yes')).toEqual({ deleted: true });
    expect(await findUserByEmail(t.db, 'listed@cli.test')).toBeUndefined();
    const deleted = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('event', '=', 'account.deleted')
      .where('user_id', '=', String(id))
      .execute();
    expect(deleted).toHaveLength(1);
    expect(deleted[0]?.detail).not.toContain('listed@cli.test');
    // what the audit log holds of the account, by its id: what it did and what was done to it, the
    // command that deleted it included
    const { entries } = await run('audit', 'list', '--id', String(id));
    expect(
      (entries as { event: string; detail: { command?: string } }[]).map((e) => e.detail.command ?? e.event),
    ).toEqual(['user delete', 'account.deleted', 'user show', 'access-code create', 'user create']);
  });

  it.skipIf(skip)(
    'user list --inactive-since lists the dormant accounts, last signed in (or made, never signed in) before that day, the longest unused first',
    async () => {
      const DAY_MS = 24 * 60 * 60 * 1000;
      const made = t.clock.now();
      const never = await seedUser(t, { email: 'dormant-never@cli.test' });
      const once = await seedUser(t, { email: 'dormant-once@cli.test' });
      const active = await seedUser(t, { email: 'still-active@cli.test' });
      const signIn = (id: string) =>
        replaceSession(t.db, [], id, t.clock.now(), { via: 'password', address: '198.51.100.4' });
      t.clock.advance(DAY_MS);
      await signIn(once.id);
      t.clock.advance(2 * DAY_MS);
      await signIn(active.id);
      // the day after `once` signed in: before it, `never` (made earlier) and `once`, not `active`
      const day = new Date(made + 2 * DAY_MS).toISOString().slice(0, 10);
      const ours = (users: unknown) =>
        (users as { email: string; lastSignInAt: string | null }[]).filter((u) =>
          u.email.endsWith('@cli.test'),
        );
      const everyDormant = (await run('user', 'list', '--inactive-since', day, '--limit', '500')).users;
      const dormant = ours(everyDormant);
      const at = (ms: number) => new Date(ms).toISOString();
      expect(dormant.slice(-2)).toEqual([
        expect.objectContaining({ id: never.id, createdAt: at(made), lastSignInAt: null }),
        expect.objectContaining({ id: once.id, lastSignInAt: at(made + DAY_MS) }),
      ]);
      expect(dormant.map((u) => u.email)).not.toContain(active.email);
      // the longest unused first: no account listed was used after one below it
      const lastUse = (u: { lastSignInAt: string | null; createdAt?: string }) =>
        Date.parse(u.lastSignInAt ?? u.createdAt ?? '');
      const uses = dormant.map(lastUse);
      expect(uses).toEqual([...uses].sort((a, b) => a - b));
      expect(uses.every((use) => use < Date.parse(`${day}T00:00:00Z`))).toBe(true);
      // a limit keeps the longest unused (of every test's accounts: another's may come first)
      const [first] = (await run('user', 'list', '--inactive-since', day, '--limit', '1')).users as unknown[];
      expect(first).toEqual((everyDormant as unknown[])[0]);

      const listed = ours((await run('user', 'list', '--limit', '500')).users);
      expect(listed).toContainEqual(
        expect.objectContaining({ id: active.id, lastSignInAt: at(t.clock.now()) }),
      );
      expect((await run('user', 'show', '--id', once.id)).lastSignInAt).toBe(at(made + DAY_MS));
      // the audit log keeps the day asked for
      const [command] = (await run('audit', 'list', '--event', 'admin.command', '--limit', '1')).entries as {
        detail: { options: Record<string, unknown> };
      }[];
      expect(command?.detail.options).toEqual({ id: once.id });
      const asked = (await run('audit', 'list', '--event', 'admin.command', '--limit', '5')).entries as {
        detail: { command: string; options: Record<string, unknown> };
      }[];
      expect(
        asked.find((e) => e.detail.command === 'user list' && 'inactive-since' in e.detail.options)?.detail
          .options,
      ).toEqual({
        'inactive-since': day,
        limit: '1',
      });
      for (const bad of ['2026-02-30', '15.01.2026', '2026-1-5'])
        await expect(run('user', 'list', '--inactive-since', bad)).rejects.toThrow(
          `--inactive-since must be a day as YYYY-MM-DD, got ${bad}`,
        );
    },
  );

  it.skipIf(skip)(
    "user delete takes the address's invitations and their unsent mail with it: the link no longer makes the account again; an address only its identity asserted keeps its own",
    async () => {
      typed = PW;
      const kid = 'kid3@school.example';
      const { code } = await run('invite', 'create', '--email', kid);
      const { id } = await run(
        'user',
        'create',
        '--email',
        kid,
        '--first',
        'K',
        '--last',
        'T',
        '--set-password',
      );
      // a second invitation whose mail has not gone yet (SMTP down), and one to an address only the
      // account's roster identity asserted: a provider's claim, perhaps another person's address
      const { code: unsent } = await createInvite(t.ctx, kid);
      await t.db
        .insertInto('user_identities')
        .values({
          user_id: String(id),
          provider: 'clever',
          subject: 'kid3-sub',
          email: 'kid3@home.example',
          created_at: t.clock.now(),
          claims: null,
        })
        .execute();
      await createInvite(t.ctx, 'kid3@home.example');
      t.clock.advance(1000);
      const addressed = (address: string) =>
        t.db.selectFrom('outbox').select('id').where('payload', 'like', `%${address}%`).execute();
      expect(await addressed(kid)).toHaveLength(1);
      expect(await listMailbox(t.db, kid)).not.toEqual([]);
      expect(await run('user', 'delete', '--email', kid, '--yes')).toEqual({ deleted: true });
      const invites = await t.db
        .selectFrom('invites')
        .select('email')
        .where('email', 'in', [kid, 'kid3@home.example'])
        .execute();
      expect(invites).toEqual([{ email: 'kid3@home.example' }]);
      expect((await t.client().get(`/api/devportal/getInviteEmail/${String(code)}`)).statusCode).toBe(404);
      expect((await t.client().get(`/api/devportal/getInviteEmail/${unsent}`)).statusCode).toBe(404);
      expect(await addressed(kid)).toEqual([]);
      expect(await addressed('kid3@home.example')).toHaveLength(1);
      expect(await listMailbox(t.db, kid)).toEqual([]);
    },
  );

  it.skipIf(skip)(
    'invite list shows the invitations without their codes; invite revoke ends one by code or all of an address, audited without either',
    async () => {
      const { code } = await run('invite', 'create', '--email', 'revoked@cli.test');
      await run('invite', 'create', '--email', 'revoked2@cli.test');
      const { code: second } = await createInvite(t.ctx, 'revoked2@cli.test');
      t.clock.advance(1000);
      const listed = await run('invite', 'list', '--email', 'revoked@cli.test');
      expect(listed).toEqual({
        invites: [
          {
            email: 'revoked@cli.test',
            createdAt: expect.any(String),
            expiresAt: expect.any(String),
            state: 'live',
          },
        ],
      });
      expect(JSON.stringify(await run('invite', 'list'))).not.toContain(String(code));
      expect(await run('invite', 'revoke', '--code', String(code))).toEqual({ revoked: 1 });
      expect(await run('invite', 'revoke', '--code', String(code))).toEqual({ revoked: 0 });
      expect((await t.client().get(`/api/devportal/getInviteEmail/${String(code)}`)).statusCode).toBe(404);
      expect(await run('invite', 'revoke', '--email', 'revoked2@cli.test')).toEqual({ revoked: 2 });
      expect((await t.client().get(`/api/devportal/getInviteEmail/${second}`)).statusCode).toBe(404);
      // the mail of the invitation not sent yet goes with it
      const unsent = await t.db
        .selectFrom('outbox')
        .select('id')
        .where('payload', 'like', `%${second}%`)
        .execute();
      expect(unsent).toEqual([]);
      await expect(run('invite', 'revoke')).rejects.toThrow('--code or --email is required');
      const { entries } = await run('audit', 'list', '--event', 'admin.command', '--limit', '6');
      const revocations = (entries as { detail: { command: string } }[]).filter((e) =>
        e.detail.command.startsWith('invite '),
      );
      expect(revocations.length).toBeGreaterThanOrEqual(4);
      for (const text of ['revoked@cli.test', 'revoked2@cli.test', String(code)])
        expect(JSON.stringify(revocations)).not.toContain(text);
    },
  );

  /**
   * An account signed in, with a grant of the authorization server issued to it: what `user sign-out`
   * and `user disable` end. `grants()` lists that grant while it is left.
   */
  async function signedInWithGrant(email: string) {
    const user = await seedUser(t, { email });
    const client = await signedInClient(t, user.id);
    const signedIn = async () => sessionSchema.parse((await client.get('/api/auth/sig')).json()).loggedin;
    const grantId = `grant-of-${email}`;
    await t.db
      .insertInto('oidc_payloads')
      .values({
        id: grantId,
        type: 'Grant',
        payload: JSON.stringify({ accountId: user.id }),
        grant_id: null,
        user_code: null,
        uid: null,
        expires_at: t.clock.now() + 60_000,
        consumed_at: null,
      })
      .execute();
    const grants = () => t.db.selectFrom('oidc_payloads').select('id').where('id', '=', grantId).execute();
    return { user, signedIn, grants };
  }

  it.skipIf(skip)(
    "user sign-out ends the account's portal sessions and the authorization server's grants and tokens, audited",
    async () => {
      const { user, signedIn, grants } = await signedInWithGrant('leaving-teacher@cli.test');
      expect(await signedIn()).toBe(true);
      expect(await run('user', 'sign-out', '--email', user.email)).toEqual({ sessionsEnded: 1 });
      expect(await signedIn()).toBe(false);
      expect(await grants()).toEqual([]);
      expect(await run('user', 'sign-out', '--id', user.id)).toEqual({ sessionsEnded: 0 });
      const { entries } = await run('audit', 'list', '--id', user.id);
      expect((entries as { event: string }[]).map((e) => e.event)).toContain('account.signed-out');
    },
  );

  it.skipIf(skip)(
    "user disable ends the account's sessions and the authorization server's payloads and keeps it out until user enable, audited once",
    async () => {
      const { user, signedIn, grants } = await signedInWithGrant('disabled-teacher@cli.test');
      await expect(run('user', 'disable', '--email', user.email)).rejects.toThrow('--yes is required');
      expect(await signedIn()).toBe(true);
      expect(await run('user', 'disable', '--email', user.email, '--yes')).toEqual({
        disabled: true,
        sessionsEnded: 1,
      });
      expect(await signedIn()).toBe(false);
      expect(await grants()).toEqual([]);
      const disabledAt = new Date(t.clock.now()).toISOString();
      expect(await run('user', 'show', '--id', user.id)).toMatchObject({ disabledAt, liveSessions: 0 });
      const { users } = await run('user', 'list', '--limit', '10000');
      expect(users).toContainEqual(expect.objectContaining({ id: user.id, disabledAt }));
      // no session starts for it
      await expect(createSession(t.db, user.id, { now: t.clock.now() })).rejects.toMatchObject({
        statusCode: 403,
        code: 'accountDisabled',
      });
      // again: nothing to end, no second entry
      expect(await run('user', 'disable', '--id', user.id, '--yes')).toEqual({
        disabled: true,
        sessionsEnded: 0,
      });
      const events = async () =>
        (
          (await run('audit', 'list', '--id', user.id)).entries as { event: string; detail: unknown }[]
        ).filter((e) => e.event !== 'admin.command');
      expect(await events()).toEqual([
        expect.objectContaining({ event: 'account.disabled', detail: { by: 'admin', sessions: 1 } }),
      ]);
      expect(await run('audit', 'list', '--event', 'account.disabled', '--limit', '10000')).toMatchObject({
        entries: expect.arrayContaining([expect.objectContaining({ user_id: user.id })]),
      });

      // a session a sign-in wrote as the disable ran (on PostgreSQL its insert reads the account as
      // on until the disable commits): unrevoked, hidden while the account is off, and not after
      await t.db.updateTable('sessions').set({ revoked_at: null }).where('user_id', '=', user.id).execute();
      expect(await signedIn()).toBe(false);
      expect(await run('user', 'enable', '--email', user.email)).toEqual({ enabled: true });
      expect(await signedIn()).toBe(false);
      expect(await run('user', 'show', '--email', user.email)).toMatchObject({ disabledAt: null });
      const again = await signedInClient(t, user.id);
      expect(sessionSchema.parse((await again.get('/api/auth/sig')).json()).loggedin).toBe(true);
      expect((await events()).map((e) => e.event)).toEqual(['account.enabled', 'account.disabled']);
      await expect(run('user', 'enable', '--email', 'nobody@cli.test')).rejects.toThrow(
        'no account with the email nobody@cli.test',
      );
    },
  );

  it.skipIf(skip)(
    'audit list refuses an event the log never holds, naming the real ones, and lists a time window with --since and --until',
    async () => {
      const refused = run('audit', 'list', '--event', 'signin.failed');
      await expect(refused).rejects.toThrow(UsageError);
      await expect(refused).rejects.toThrow(
        /^--event must be one of sign-in, sign-in\.failed, .*, got signin\.failed$/,
      );
      expect(helpFor(['audit', 'list'])).toContain('sign-in.failed');
      const user = await seedUser(t, { email: 'windowed@cli.test' });
      const at = (ms: number) => new Date(ms).toISOString();
      const before = t.clock.now();
      await audit(t.ctx, { event: 'account.renamed', userId: user.id });
      t.clock.advance(60_000);
      const middle = t.clock.now();
      await audit(t.ctx, { event: 'account.unlocked', userId: user.id });
      t.clock.advance(60_000);
      await audit(t.ctx, { event: 'account.locked', userId: user.id });
      // the account's own events, not the listings of it (each an admin.command naming its id)
      const events = async (...window: string[]) =>
        ((await run('audit', 'list', '--id', user.id, ...window)).entries as { event: string }[])
          .map((e) => e.event)
          .filter((event) => event !== 'admin.command');
      expect(await events('--since', at(middle))).toEqual(['account.locked', 'account.unlocked']);
      expect(await events('--since', at(before), '--until', at(middle))).toEqual(['account.renamed']);
      // without a zone, UTC
      expect(await events('--until', at(middle).replace(/\.000Z$/, ''))).toEqual(['account.renamed']);
      expect(await events('--since', at(before).slice(0, 10))).toHaveLength(3);
      for (const bad of ['yesterday', '2026-02-30', '01/03/2026'])
        await expect(run('audit', 'list', '--since', bad)).rejects.toThrow(
          `--since must be a time as 2026-03-01 or 2026-03-01T08:00:00Z, got ${bad}`,
        );
    },
  );

  it.skipIf(skip)(
    "user show answers a helpdesk: whether the account's mails went out and when, and until when its delay holds",
    async () => {
      const user = await seedUser(t, { email: 'helpdesk@cli.test' });
      expect((await t.client().post('/api/cognito/sendreset', { un: user.email })).statusCode).toBe(200);
      const queued = await run('user', 'show', '--email', user.email);
      expect(queued.mails).toEqual([
        expect.objectContaining({
          template: 'reset',
          state: 'pending',
          attempts: 0,
          deliveredAt: null,
          queuedByReqId: expect.any(String),
        }),
      ]);
      await t.ctx.outbox.drain();
      const now = t.clock.now();
      await t.db
        .updateTable('users')
        .set({ failed_attempts: ABUSE_LIMITS.accountDelayAfterFailures, last_failed_at: now })
        .where('id', '=', user.id)
        .execute();
      const shown = await run('user', 'show', '--email', user.email);
      expect(shown.mails).toEqual([
        expect.objectContaining({
          state: 'delivered',
          attempts: 1,
          deliveredAt: new Date(now).toISOString(),
        }),
      ]);
      expect(shown.delayedUntil).toBe(new Date(now + ABUSE_LIMITS.accountDelayStartMs).toISOString());
      t.clock.advance(ABUSE_LIMITS.accountDelayStartMs);
      expect((await run('user', 'show', '--email', user.email)).delayedUntil).toBeNull();
      expect(JSON.stringify(shown)).not.toContain((await lastMail(t, user.email)).code);
    },
  );

  /** An account a roster sign-in made with a placeholder address, its identity asserting `email`. */
  const rostered = async (provider: string, subject: string, email: string, claims?: object) => {
    const account = await seedUser(t, { email: `${subject}@federated.invalid`, password: null });
    await t.db
      .insertInto('user_identities')
      .values({
        user_id: account.id,
        provider,
        subject,
        email,
        created_at: t.clock.now(),
        claims: claims ? JSON.stringify(claims) : null,
      })
      .execute();
    return account;
  };

  it.skipIf(skip)(
    'an address only linked identities asserted: user show and user delete --email name the accounts user find lists and ask for --id; user find audits their ids',
    async () => {
      const address = 'guardian-only@cli.test';
      const clever = await rostered('Clever', 'clever-only', address);
      t.clock.advance(1000); // `user find` lists them as they were made
      const classlink = await rostered('ClassLink', 'classlink-only', address);
      const refusal = `no account has the email ${address} as its own, but a linked identity of ${clever.id} (Clever), ${classlink.id} (ClassLink) asserted it (user find --email ${address}): name the account with --id <id>`;
      await expect(run('user', 'show', '--email', address)).rejects.toThrow(refusal);
      await expect(run('user', 'delete', '--email', address, '--yes')).rejects.toThrow(refusal);
      expect(await findUserByEmail(t.db, `clever-only@federated.invalid`)).toMatchObject({ id: clever.id });
      await expect(run('user', 'show', '--email', 'nobody-at-all@cli.test')).rejects.toThrow(
        'no account with the email nobody-at-all@cli.test',
      );

      const { accounts } = await run('user', 'find', '--email', address);
      expect((accounts as { id: string }[]).map((account) => account.id)).toEqual([clever.id, classlink.id]);
      // the request was handled, and `audit list --id` of each account says so
      for (const id of [clever.id, classlink.id]) {
        const { entries } = await run('audit', 'list', '--id', id, '--limit', '1');
        expect((entries as { detail: unknown }[])[0]?.detail).toEqual({
          command: 'user find',
          options: { email: { userIds: [clever.id, classlink.id] } },
          ok: true,
        });
      }
      await run('user', 'find', '--email', 'nobody-at-all@cli.test');
      const [nobody] = (await run('audit', 'list', '--event', 'admin.command', '--limit', '1')).entries as {
        detail: unknown;
      }[];
      expect(nobody?.detail).toMatchObject({ options: { email: { userIds: [] } } });
    },
  );

  it.skipIf(skip)(
    'finds, shows and deletes an account whose address an older release took and the forms now refuse',
    async () => {
      // seedUser writes the row as given, as a release before the stricter email pattern did
      const old = await seedUser(t, { email: 'teacher@old_district.test' });
      expect((await run('user', 'find', '--email', 'Teacher@Old_District.test')).accounts).toEqual([
        expect.objectContaining({ id: old.id, namedBy: ['account'] }),
      ]);
      expect(await run('user', 'show', '--email', 'teacher@old_district.test')).toMatchObject({ id: old.id });
      expect(await run('user', 'delete', '--email', 'teacher@old_district.test', '--yes')).toEqual({
        deleted: true,
      });
      // each command that named it by that address is found by its id
      const { entries } = await run('audit', 'list', '--id', old.id);
      expect((entries as { detail: { command?: string } }[]).map((e) => e.detail.command)).toEqual([
        'user delete',
        undefined, // account.deleted
        'user show',
        'user find',
      ]);
      // what is created is judged as the forms judge it
      await expect(run('invite', 'create', '--email', 'teacher@old_district.test')).rejects.toThrow(
        '--email: not a valid email address',
      );
    },
  );

  it.skipIf(skip)(
    'user find lists every account of a person known by an address, roster accounts with a placeholder address included; user delete --id removes each',
    async () => {
      const own = await seedUser(t, { email: 'family@cli.test' });
      const cleverClaims = {
        emailVerified: false,
        emailTrusted: false,
        district: 'district-7',
        schools: ['school-3'],
        roles: ['student'],
      };
      const clever = await rostered('Clever', 'clever-family', 'family@cli.test', cleverClaims);
      // linked before migration 007 kept what it asserted
      const classlink = await rostered('ClassLink', 'classlink-family', 'family@cli.test');
      const accounts = (await run('user', 'find', '--email', 'family@cli.test')).accounts as unknown[];
      expect(accounts).toHaveLength(3);
      expect(accounts[0]).toMatchObject({ id: own.id, email: 'family@cli.test', namedBy: ['account'] });
      expect(accounts.slice(1)).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            id: clever.id,
            email: 'clever-family@federated.invalid',
            namedBy: ['Clever'],
          }),
          expect.objectContaining({ id: classlink.id, namedBy: ['ClassLink'] }),
        ]),
      );
      // `user show` names what each identity asserted: the roster's district, schools and roles too
      expect((await run('user', 'show', '--id', clever.id)).identities).toEqual([
        {
          provider: 'Clever',
          subject: 'clever-family',
          email: 'family@cli.test',
          linkedAt: expect.any(String),
          claims: cleverClaims,
        },
      ]);
      expect((await run('user', 'show', '--id', classlink.id)).identities).toEqual([
        expect.objectContaining({ provider: 'ClassLink', claims: null }),
      ]);
      for (const id of [own.id, clever.id, classlink.id])
        expect(await run('user', 'delete', '--id', id, '--yes')).toEqual({ deleted: true });
      expect(await run('user', 'find', '--email', 'family@cli.test')).toEqual({ accounts: [] });
      await expect(run('user', 'show', '--id', clever.id)).rejects.toThrow(
        `no account with the id ${clever.id}`,
      );
    },
  );

  it.skipIf(skip)(
    "user rename sets the names a stranger typed at a sign-up confirmed in another browser; the names follow the sign-up form's rules",
    async () => {
      await t.client().post('/api/cognito/signup', {
        first: 'Visit evil.example now',
        last: 'X',
        email: 'renamed@cli.test',
        pw: PW,
        description: 'student',
      });
      const { code } = await lastMail(t, 'renamed@cli.test');
      await t.client().post('/api/cognito/confirm', { un: 'renamed@cli.test', code });
      expect(await run('user', 'show', '--email', 'renamed@cli.test')).toMatchObject({ namesProven: false });

      expect(
        await run('user', 'rename', '--email', 'renamed@cli.test', '--first', ' Rosa ', '--last', 'Parks'),
      ).toEqual({ renamed: true });
      expect(await run('user', 'show', '--email', 'renamed@cli.test')).toMatchObject({
        first: 'Rosa',
        last: 'Parks',
        namesProven: true,
      });
      const { id } = (await run('user', 'show', '--email', 'renamed@cli.test')) as { id: string };
      expect((await run('audit', 'list', '--event', 'account.renamed', '--id', id)).entries).toHaveLength(1);
      await expect(
        run('user', 'rename', '--email', 'renamed@cli.test', '--first', 'R'.repeat(200), '--last', 'P'),
      ).rejects.toThrow(messages.firstNameTooLong);
      await expect(
        run('user', 'create', '--email', 'long@cli.test', '--first', 'F', '--last', 'L'.repeat(200)),
      ).rejects.toThrow(messages.lastNameTooLong);
    },
  );

  it.skipIf(skip)(
    "sp create notes each origin whose pages cannot read auth/sig: one not in CORS_ORIGINS, the portal's own aside, and an http one under an https portal",
    async () => {
      const config = {
        ...t.ctx.config,
        publicUrl: 'https://login.school.test',
        corsOrigins: ['https://listed.school.test', 'https://listed2.school.test'],
      };
      const create = (id: string, ...origins: string[]) => {
        const { positionals, values } = parseAdminArgs([
          'sp',
          'create',
          '--id',
          id,
          '--name',
          id,
          ...origins.flatMap((origin) => ['--origin', origin]),
        ]);
        return runAdminCommand({ ...t.ctx, config }, positionals, values);
      };
      const portal = new URL(config.publicUrl).origin;
      expect(await create('cors-fine', 'https://listed.school.test/', portal)).not.toHaveProperty('notes');
      expect(
        (await create('cors-missing', 'https://listed2.school.test', 'https://unlisted.school.test')).notes,
      ).toEqual([
        'https://unlisted.school.test is not in this command\'s CORS_ORIGINS (the server\'s must hold it): its pages cannot read auth/sig until it is (docs/identity.md, "Integrating a product")',
      ]);
      // under an https portal an http page is another site: CORS_ORIGINS cannot help it
      const https = {
        ...config,
        publicUrl: 'https://login.school.test',
        corsOrigins: ['http://math.school.test'],
      };
      const { positionals, values } = parseAdminArgs([
        ...['sp', 'create', '--id', 'plain-http', '--name', 'Math'],
        ...['--origin', 'http://math.school.test'],
      ]);
      expect((await runAdminCommand({ ...t.ctx, config: https }, positionals, values)).notes).toEqual([
        'http://math.school.test is http, the portal https: another site, whose pages never carry the session cookie, so they cannot read auth/sig; serve the product over https (docs/identity.md, "Integrating a product")',
      ]);
    },
  );

  it.skipIf(skip)(
    "sp create and sp origin add note each origin on another site than PUBLIC_URL's, where auth/sig answers signed out (localhost beside 127.0.0.1, another registrable domain)",
    async () => {
      const withPortal = (publicUrl: string, ...argv: string[]) => {
        const { positionals, values } = parseAdminArgs(argv);
        const config = { ...t.ctx.config, publicUrl, corsOrigins: values.origin ?? [] };
        return runAdminCommand({ ...t.ctx, config }, positionals, values);
      };
      const note = (origin: string, site: string, portal: string) =>
        `${origin} is on another site (${site}) than the portal (${portal}, PUBLIC_URL): its pages never carry the session cookie, so auth/sig answers them loggedin: false even right after a sign-in; serve the product on the portal's site, as a sibling subdomain (docs/identity.md, "Integrating a product", step 2)`;
      const local = 'http://127.0.0.1:8080';
      expect(
        (
          await withPortal(
            local,
            'sp',
            'create',
            '--id',
            'site-local',
            '--name',
            'L',
            '--origin',
            'http://localhost:8375',
          )
        ).notes,
      ).toEqual([note('http://localhost:8375', 'http://localhost', 'http://127.0.0.1')]);
      // the port is no part of a site: the same host elsewhere is fine
      expect(
        await withPortal(
          local,
          'sp',
          'origin',
          'add',
          '--id',
          'site-local',
          '--origin',
          'http://127.0.0.1:8375',
        ),
      ).toEqual({ sp_id: 'site-local', origins: ['http://localhost:8375', 'http://127.0.0.1:8375'] });
      // by the public suffix list: two schools under co.uk are two sites, two subdomains of one are one
      const portal = 'https://login.school.co.uk';
      expect(
        (
          await withPortal(
            portal,
            ...['sp', 'create', '--id', 'site-uk', '--name', 'U'],
            ...['--origin', 'https://math.school.co.uk', '--origin', 'https://math.other.co.uk'],
          )
        ).notes,
      ).toEqual([note('https://math.other.co.uk', 'https://other.co.uk', 'https://school.co.uk')]);
      expect(
        (
          await withPortal(
            portal,
            'sp',
            'origin',
            'add',
            '--id',
            'site-uk',
            '--origin',
            'https://art.example.org',
          )
        ).notes,
      ).toEqual([note('https://art.example.org', 'https://example.org', 'https://school.co.uk')]);
    },
  );

  it.skipIf(skip)("sp create refuses `*` in an origin's host", async () => {
    for (const origin of [
      'https://*.example.org',
      'https://a..example.org',
      'https://example.org.',
      'https://a b.org',
    ])
      await expect(run('sp', 'create', '--id', 'wild', '--name', 'W', '--origin', origin)).rejects.toThrow(
        UsageError,
      );
    await expect(
      run('sp', 'create', '--id', 'wild', '--name', 'W', '--origin', 'https://*.example.org'),
    ).rejects.toThrow(
      "--origin https://*.example.org: *.example.org is not a host name (letters, digits and '-' between dots, no '*': an origin names one site, so register each one)",
    );
    expect((await run('sp', 'list')).providers).not.toContainEqual(expect.objectContaining({ spId: 'wild' }));
    // a name in another script is taken in its xn-- form, an IP address as it is
    expect(
      await run(
        'sp',
        'create',
        '--id',
        'idn',
        '--name',
        'I',
        '--origin',
        'https://bücher.test',
        '--origin',
        'http://[::1]:8375',
      ),
    ).toMatchObject({ sp_id: 'idn' });
    await expect(run('sp', 'origin', 'add', '--id', 'idn', '--origin', 'https://*.test')).rejects.toThrow(
      /is not a host name/,
    );
  });

  it.skipIf(skip)(
    'sp origin add lets a new return address through createCsrfLogin; remove stops it',
    async () => {
      const { clientId, clientSecret } = await run(
        ...['sp', 'create', '--id', 'moving', '--name', 'Moving', '--origin', 'https://old.moving.test'],
      );
      const login = (url: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/gateway/createCsrfLogin',
          headers: { authorization: basicAuth(String(clientId), String(clientSecret)) },
          payload: { url, isTeacher: false },
        });
      expect((await login('https://new.moving.test/x')).json()).toMatchObject({
        code: 'returnUrlNotAllowed',
      });
      expect(
        await run('sp', 'origin', 'add', '--id', 'moving', '--origin', 'https://New.moving.test/'),
      ).toMatchObject({
        sp_id: 'moving',
        origins: ['https://old.moving.test', 'https://new.moving.test'],
      });
      expect((await login('https://new.moving.test/x')).statusCode).toBe(200);
      expect((await run('sp', 'list')).providers).toContainEqual(
        expect.objectContaining({
          spId: 'moving',
          origins: ['https://old.moving.test', 'https://new.moving.test'],
        }),
      );
      await expect(
        run('sp', 'origin', 'add', '--id', 'moving', '--origin', 'https://new.moving.test'),
      ).rejects.toThrow('--origin https://new.moving.test: already an origin of moving');
      expect(
        await run('sp', 'origin', 'remove', '--id', 'moving', '--origin', 'https://old.moving.test'),
      ).toEqual({
        sp_id: 'moving',
        origins: ['https://new.moving.test'],
      });
      expect((await login('https://old.moving.test/x')).statusCode).toBe(400);
      await expect(
        run('sp', 'origin', 'remove', '--id', 'moving', '--origin', 'https://old.moving.test'),
      ).rejects.toThrow(
        '--origin https://old.moving.test: not an origin of moving (https://new.moving.test)',
      );
      // its last origin stays: without one no login request could be opened
      await expect(
        run('sp', 'origin', 'remove', '--id', 'moving', '--origin', 'https://new.moving.test'),
      ).rejects.toThrow(
        'moving would have no origin left, and a provider without one can open no login request: add the new origin first (sp origin add)',
      );
      await expect(
        run('sp', 'origin', 'add', '--id', 'nobody', '--origin', 'https://x.test'),
      ).rejects.toThrow('no service provider nobody');
      const { entries } = await run('audit', 'list', '--event', 'admin.command', '--limit', '10');
      expect(entries).toContainEqual(
        expect.objectContaining({
          detail: {
            command: 'sp origin remove',
            options: { id: 'moving', origin: ['https://old.moving.test'] },
            ok: true,
          },
        }),
      );
    },
  );

  it.skipIf(skip)(
    'sp create and sp origin add note an origin another product has too (its tokens name no product); sp origin remove takes one stored before hosts were checked',
    async () => {
      await run('sp', 'create', '--id', 'first-of-two', '--name', 'One', '--origin', 'https://shared.test');
      const shared =
        'https://shared.test is also an origin of first-of-two: tokens asked from its pages name no product (aud \'frontdoor-products\' alone), so no product there can verify its own sp_id; give each product an origin of its own (docs/identity.md, "Integrating a product")';
      const second = await run(
        ...['sp', 'create', '--id', 'second-of-two', '--name', 'Two', '--origin', 'https://shared.test'],
      );
      expect(second.notes).toContainEqual(shared);
      await run('sp', 'create', '--id', 'third-of-two', '--name', 'Three', '--origin', 'https://own.test');
      expect(
        (await run('sp', 'origin', 'add', '--id', 'third-of-two', '--origin', 'https://shared.test')).notes,
      ).toContainEqual(shared.replace('first-of-two', 'first-of-two, second-of-two'));
      // a wildcard stored as typed before `sp create` refused it: removable still
      await t.db
        .updateTable('service_providers')
        .set({ origins: JSON.stringify(['https://own.test', 'https://*.own.test']) })
        .where('sp_id', '=', 'third-of-two')
        .execute();
      expect(
        await run('sp', 'origin', 'remove', '--id', 'third-of-two', '--origin', 'https://*.own.test'),
      ).toEqual({ sp_id: 'third-of-two', origins: ['https://own.test'] });
      await expect(
        run('sp', 'origin', 'add', '--id', 'third-of-two', '--origin', 'https://*.own.test'),
      ).rejects.toThrow('is not a host name');
    },
  );

  it.skipIf(skip)('sp create refuses an id differing only by case', async () => {
    await run('sp', 'create', '--id', 'mathlab', '--name', 'Math', '--origin', 'https://mathlab.test');
    await expect(
      run('sp', 'create', '--id', 'MathLab', '--name', 'Math', '--origin', 'https://mathlab.test'),
    ).rejects.toThrow(
      '--id MathLab: a service provider mathlab exists already, differing only by case; choose another id, or use mathlab',
    );
    await expect(
      run('sp', 'create', '--id', 'mathlab', '--name', 'Math', '--origin', 'https://mathlab.test'),
    ).rejects.toThrow(
      'a service provider mathlab exists already (sp rotate-secret gives it a new secret, sp origin add and sp origin remove change its origins)',
    );
    expect((await run('sp', 'list')).providers).not.toContainEqual(
      expect.objectContaining({ spId: 'MathLab' }),
    );
  });

  it.skipIf(skip)(
    "access-code create refuses to run with another SECRET than the server's last start when no instance is up: its code would fail there",
    async () => {
      await seedServiceProvider(t, 'secret-sp');
      await seedUser(t, { email: 'secret-pupil@cli.test' });
      const fingerprint = async (secret: string) => {
        await t.db.deleteFrom('identity_keys').where('name', '=', SECRET_FINGERPRINT_KEY).execute();
        await t.db
          .insertInto('identity_keys')
          .values({
            name: SECRET_FINGERPRINT_KEY,
            material: JSON.stringify(secretFingerprint(secret)),
            created_at: t.clock.now(),
          })
          .execute();
      };
      const create = () =>
        run('access-code', 'create', '--sp', 'secret-sp', '--email', 'secret-pupil@cli.test');
      const codes = async () =>
        (await t.db.selectFrom('access_codes').select('id').where('sp_id', '=', 'secret-sp').execute())
          .length;
      // the server last started with another SECRET (a shell without its .env)
      await fingerprint('the-server-s-own-secret-of-at-least-32-characters');
      await expect(create()).rejects.toThrow(/SECRET is not the one the server runs with/);
      expect(await codes()).toBe(0);
      // with the server's own it makes the code
      await fingerprint(t.ctx.config.secret);
      expect(await create()).toMatchObject({ code: expect.stringMatching(/^\d{6}$/) });
      expect(await codes()).toBe(1);
      await t.db.deleteFrom('identity_keys').where('name', '=', SECRET_FINGERPRINT_KEY).execute();
    },
  );

  it.skipIf(skip)(
    'access-code create checks SECRET against the instances serving: a start with another SECRET, stopped or killed, does not turn the check round',
    async () => {
      await seedServiceProvider(t, 'serving-sp');
      await seedUser(t, { email: 'serving-pupil@cli.test' });
      const serverSecret = t.ctx.config.secret;
      const wrongSecret = 'a-wrong-secret-typed-at-one-start-0123456789';
      const withSecret = (secret: string) => ({ ...t.ctx, config: { ...t.ctx.config, secret } });
      const { logger } = capturedLines('info');
      // an instance start: the fingerprint check, then its heartbeat row
      const start = async (secret: string, instanceId: string) => {
        await noteSecretChange({ ...withSecret(secret), logger });
        await noteInstance(withSecret(secret), instanceId);
      };
      const create = (secret: string) => {
        const { positionals, values } = parseAdminArgs([
          ...['access-code', 'create', '--sp', 'serving-sp', '--email', 'serving-pupil@cli.test'],
        ]);
        return runAdminCommand(withSecret(secret), positionals, values);
      };
      const refused = /SECRET is not the one the server runs with/;
      await start(serverSecret, 'instance-a');
      // a start with another SECRET, stopped after a few seconds: its fingerprint is the last start's
      await start(wrongSecret, 'instance-b');
      await forgetInstance(t.db, 'instance-b');
      expect(await create(serverSecret)).toMatchObject({ code: expect.stringMatching(/^\d{6}$/) });
      await expect(create(wrongSecret)).rejects.toThrow(refused);
      // killed, not stopped: refused with either while it may still serve, then gone with its heartbeats
      await start(wrongSecret, 'instance-c');
      await expect(create(serverSecret)).rejects.toThrow(refused);
      for (let waited = 0; waited <= INSTANCE_LIVE_MS; waited += INSTANCE_HEARTBEAT_MS) {
        t.clock.advance(INSTANCE_HEARTBEAT_MS);
        await noteInstance(withSecret(serverSecret), 'instance-a');
      }
      expect(await create(serverSecret)).toMatchObject({ code: expect.stringMatching(/^\d{6}$/) });
      await expect(create(wrongSecret)).rejects.toThrow(refused);
      await t.db.deleteFrom('instance_secrets').execute();
      await t.db.deleteFrom('identity_keys').where('name', '=', SECRET_FINGERPRINT_KEY).execute();
    },
  );

  it.skipIf(skip)(
    "refuses a number past its option's bound (--ttl-days 365, --limit 10000, --id 2147483647) with a UsageError naming both, alike on either database, and stores nothing",
    async () => {
      await run('sp', 'create', '--id', 'bound-sp', '--name', 'B', '--origin', 'https://bound.test');
      const { id: userId } = await run(
        'user',
        'create',
        '--email',
        'bound@cli.test',
        '--first',
        'B',
        '--last',
        'D',
      );
      const create = (ttl: string) =>
        run('access-code', 'create', '--sp', 'bound-sp', '--email', 'bound@cli.test', '--ttl-days', ttl);
      for (const ttl of ['1e15', '1000000', '366']) {
        const refused = create(ttl);
        await expect(refused).rejects.toThrow(UsageError);
        await expect(refused).rejects.toThrow(`--ttl-days must be a whole number from 1 to 365, got ${ttl}`);
      }
      for (const [argv, refusal] of [
        [
          ['outbox', 'retry', '--id', '2147483648'],
          '--id must be a whole number from 1 to 2147483647, got 2147483648',
        ],
        [['audit', 'list', '--limit', '1e19'], '--limit must be a whole number from 1 to 10000, got 1e19'],
        [['user', 'list', '--limit', '1e300'], '--limit must be a whole number from 1 to 10000, got 1e300'],
        [['user', 'list', '--limit', '10001'], '--limit must be a whole number from 1 to 10000, got 10001'],
      ] as const) {
        const refused = run(...argv);
        await expect(refused, argv.join(' ')).rejects.toThrow(UsageError);
        await expect(refused, argv.join(' ')).rejects.toThrow(refusal);
      }
      // nor does the service store such a date for any other caller
      await expect(
        createAccessCode(t.ctx, { spId: 'bound-sp', userId: String(userId), ttlDays: 1e15 }),
      ).rejects.toThrow('an access code lives 1 to 365 days, not 1000000000000000');
      const stored = await t.db
        .selectFrom('access_codes')
        .select('id')
        .where('user_id', '=', String(userId))
        .execute();
      expect(stored).toEqual([]);

      // the bounds themselves are taken
      const { expiresAt } = await create('365');
      expect(Date.parse(String(expiresAt)) - t.clock.now()).toBe(365 * 24 * 60 * 60 * 1000);
      expect((await run('access-code', 'list', '--sp', 'bound-sp')).codes).toHaveLength(1);
      expect(await run('user', 'show', '--email', 'bound@cli.test')).toMatchObject({ id: userId });
      expect(await run('audit', 'list', '--limit', '10000')).toMatchObject({ entries: expect.any(Array) });
      await expect(run('outbox', 'retry', '--id', '2147483647')).rejects.toThrow('no outbox row 2147483647');
    },
  );

  it.skipIf(skip)('refuses bad usage with a UsageError', async () => {
    await expect(run('sp', 'create', '--id', 'x', '--name', 'X')).rejects.toThrow(UsageError);
    await expect(run('sp', 'create', '--id', 'x', '--name', 'X', '--origin', 'ftp://x')).rejects.toThrow(
      /origin/,
    );
    // an origin with a path would seem to allow less than the whole site it allows
    await expect(
      run('sp', 'create', '--id', 'pathy', '--name', 'P', '--origin', 'https://app.test/app/'),
    ).rejects.toThrow('--origin https://app.test/app/: an origin has no path; https://app.test allows');
    expect(
      await run('sp', 'create', '--id', 'slashed', '--name', 'S', '--origin', 'https://slash.test/'),
    ).toMatchObject({ sp_id: 'slashed' });
    // an id every route takes: a 101-character one, spaces or a slash would fail each class code
    for (const id of ['x'.repeat(101), 'two words', 'a/b'])
      await expect(
        run('sp', 'create', '--id', id, '--name', 'X', '--origin', 'https://x.test'),
      ).rejects.toThrow(/letters, digits, '\.', '_' and '-' only, at most 100 characters/);
    // a second provider under an id in use: a sentence, not the database's constraint
    await run('sp', 'create', '--id', 'twice', '--name', 'Twice', '--origin', 'https://twice.test');
    const again = run('sp', 'create', '--id', 'twice', '--name', 'Again', '--origin', 'https://again.test');
    await expect(again).rejects.toThrow(UsageError);
    await expect(again).rejects.toThrow('a service provider twice exists already');
    typed = 'weak';
    await expect(
      run('user', 'create', '--email', 'weak@cli.test', '--set-password', '--first', 'W', '--last', 'K'),
    ).rejects.toThrow(/--set-password/);
    typed = PW;
    // never a password on the command line: shell history and the process list keep it
    await expect(
      run('user', 'create', '--email', 'argv@cli.test', '--password', PW, '--first', 'A', '--last', 'V'),
    ).rejects.toThrow(/--password is not accepted/);
    expect(await findUserByEmail(t.db, 'argv@cli.test')).toBeUndefined();
    await expect(run('user', 'delete', '--email', 'teacher@cli.test')).rejects.toThrow(/--yes is required/);
    // the help's two forms, both named
    await expect(run('access-code', 'revoke')).rejects.toThrow(/^--id, or --sp and --email, is required$/);
    await expect(run('sp', 'rotate-secret', '--id', 'nope')).rejects.toThrow(/no service provider/);
    await expect(run('access-code', 'create', '--sp', 'nope', '--email', 'a@b.test')).rejects.toThrow(
      /service provider/,
    );
    await expect(run('realm', 'set', '--domain', 'a.test', '--type', 'Sometimes')).rejects.toThrow(/--type/);
    await expect(run('fly', 'away')).rejects.toThrow(/unknown command/);
    expect(() => parseAdminArgs(['--bogus'])).toThrow(UsageError);
  });
});

describe('admin CLI formatting', () => {
  it('prints the help of one command after it, the whole help otherwise', () => {
    expect(helpFor(['user', 'delete'])).toMatch(
      /^Usage: npm run admin -- \[--json\] user delete --email <e> \| --id <id>, --yes/,
    );
    expect(helpFor(['prune'])).toContain('Deletes rows dead longer');
    expect(helpFor(['user'])).toBe(HELP);
    for (const name of Object.keys(COMMANDS))
      expect(helpFor(name.split(' '))).toContain(COMMANDS[name]?.summary);
  });

  it('prints one JSON object with --json, lines otherwise, and documents every command', () => {
    expect(formatResult({ code: '123456' }, true)).toBe('{"code":"123456"}');
    expect(formatResult({ code: '123456' }, false)).toBe('code: 123456');
    for (const cmd of [
      'sp create',
      'login create',
      'user create',
      'invite create',
      'access-code create',
      'access-code list',
      'access-code revoke',
      'access-code budget',
      'user unlock',
      'audit list',
      'masquerade start',
      'masquerade stop',
      'mailbox list',
      'outbox retry',
      'realm set',
      'prune',
      'keys rotate',
      'sp list',
      'sp rotate-secret',
      'user list',
      'user find',
      'user show',
      'user rename',
      'user delete',
      'user sign-out',
      'invite list',
      'invite revoke',
    ]) {
      expect(HELP).toContain(cmd);
    }
  });
});

describe('admin CLI as a child process', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fd-admin-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const cli = path.join(path.dirname(fileURLToPath(import.meta.url)), 'cli.ts');
  const exec = promisify(execFile);
  const env = { ...process.env, DATA_DIR: dataDir, APP_ENV: 'development', DATABASE_URL: '' };

  /** Runs the CLI as `npm run admin -- …` would, in the test's DATA_DIR. */
  const run = (...args: string[]) => exec(process.execPath, [cli, ...args], { env });
  const createSp = (name: string) =>
    run('--json', 'sp', 'create', '--id', 'proc', '--name', name, '--origin', 'https://proc.test');

  it('creates a service provider in DATA_DIR and prints JSON', async () => {
    const { stdout } = await createSp('Proc');
    expect(JSON.parse(stdout)).toMatchObject({ sp_id: 'proc' });
    const help = await run('--help');
    expect(help.stdout).toContain('access-code create');
    // the same id again: a usage error that says so, never the database's constraint
    const failed = await createSp('Again').catch((e: { code: number; stderr: string }) => e);
    expect('code' in failed && failed.code).toBe(2);
    expect(JSON.parse(String('stderr' in failed ? failed.stderr : '')).error).toMatch(
      /^a service provider proc exists already/,
    );
  }, 30_000);

  it('says when DATA_DIR held no database and it made an empty one (a mistyped DATA_DIR), and only then', async () => {
    const elsewhere = path.join(dataDir, 'mistyped');
    const inElsewhere = (...args: string[]) =>
      exec(process.execPath, [cli, ...args], { env: { ...env, DATA_DIR: elsewhere } });
    const first = await inElsewhere('sp', 'list');
    expect(first.stderr.trimEnd().split('\n')).toEqual([
      `notice: DATA_DIR ${elsewhere} held no database, so this command made a new, empty one: if the server uses another, set DATA_DIR or DATABASE_URL to the server's and run the command again`,
    ]);
    expect((await inElsewhere('sp', 'list')).stderr).toBe('');
    const json = await exec(process.execPath, [cli, '--json', 'sp', 'list'], {
      env: { ...env, DATA_DIR: path.join(dataDir, 'mistyped-too') },
    });
    expect(JSON.parse(json.stderr)).toEqual({ notice: expect.stringMatching(/held no database/) });
    expect(JSON.parse(json.stdout)).toEqual(expect.anything());
  }, 30_000);

  it("refuses an older release's database, which its server may be running on, and leaves it unmigrated: exit 1", async () => {
    const older = path.join(dataDir, 'older');
    const db = createDb({ dataDir: older });
    await migrateTo(db, { secret: TEST_SECRET }, '015_crm_contact');
    const ran = await executedMigrations(db);
    await db.destroy();
    const failed = await exec(process.execPath, [cli, 'user', 'show', '--email', 'x@proc.test'], {
      env: { ...env, DATA_DIR: older },
    }).catch((e: { code: number; stderr: string }) => e);
    expect('code' in failed && failed.code).toBe(1);
    expect(String(failed.stderr).trimEnd().split('\n')).toEqual([
      `error: the database of DATA_DIR ${older} is an older release's (its last migration is 015_crm_contact, this release's ${RELEASE_MIGRATIONS.at(-1)}): start this release's server first, which migrates it, then run the command again; nothing was changed`,
    ]);
    const after = createDb({ dataDir: older });
    try {
      expect(await executedMigrations(after)).toEqual(ran);
    } finally {
      await after.destroy();
    }
  }, 30_000);

  it('reads --set-password from stdin, never from the command line', async () => {
    const created = exec(
      process.execPath,
      [
        cli,
        '--json',
        'user',
        'create',
        '--email',
        'piped@proc.test',
        '--first',
        'P',
        '--last',
        'Q',
        '--set-password',
      ],
      { env },
    );
    created.child.stdin?.end(`${PW}\nignored second line\n`);
    expect(JSON.parse((await created).stdout)).toMatchObject({ id: expect.any(String) });
    const shown = await run('--json', 'user', 'show', '--email', 'piped@proc.test');
    expect(JSON.parse(shown.stdout)).toMatchObject({ hasPassword: true });
    const help = await run('user', 'create', '--help');
    expect(help.stdout).toContain('--set-password');
  }, 30_000);

  it('says why it cannot start in one line, as the server does, not a stack trace: exit 1', async () => {
    const file = path.join(dataDir, 'a-file');
    writeFileSync(file, '');
    const belowFile = path.join(file, 'data');
    const failures: [NodeJS.ProcessEnv, string][] = [
      [{ DATA_DIR: belowFile }, `error: DATA_DIR ${belowFile} cannot be used (ENOTDIR`],
      [
        { APP_ENV: 'production', SECRET: 'xx' },
        'error: configuration refused: PUBLIC_URL is required in production',
      ],
      [
        { DATABASE_URL: 'postgres://frontdoor:s3cret-pw@127.0.0.1:1/frontdoor' },
        'error: PostgreSQL at 127.0.0.1:1/frontdoor (DATABASE_URL) cannot be reached',
      ],
    ];
    for (const [extra, message] of failures) {
      const failed = await exec(process.execPath, [cli, 'sp', 'list'], { env: { ...env, ...extra } }).catch(
        (e: { code: number; stderr: string }) => e,
      );
      expect('code' in failed && failed.code, message).toBe(1);
      const lines = String(failed.stderr).trimEnd().split('\n');
      expect(lines, message).toEqual([expect.stringMatching(/^error: /)]);
      expect(lines[0]?.startsWith(message), `${lines[0]} starts with ${message}`).toBe(true);
      expect(lines[0]).not.toContain('s3cret-pw');
    }
  }, 30_000);

  it.skipIf(DIALECTS.find((d) => d.dialect === 'postgres')?.skip)(
    "refuses a PostgreSQL that takes no writes (a replica, default_transaction_read_only) in the server's sentence, not the driver's: exit 1",
    async () => {
      const { databaseUrl, drop } = await createTestDb('postgres');
      const name = new URL(databaseUrl ?? '').pathname.slice(1);
      const admin = createDb({ databaseUrl: TEST_DATABASE_URL, dataDir: '.' });
      try {
        await sql`alter database ${sql.id(name)} set default_transaction_read_only = on`.execute(admin);
        const failed = await exec(process.execPath, [cli, '--json', 'sp', 'list'], {
          env: { ...env, DATABASE_URL: databaseUrl },
        }).catch((e: { code: number; stderr: string }) => e);
        expect('code' in failed && failed.code).toBe(1);
        const { error } = JSON.parse(String(failed.stderr)) as { error: string };
        expect(
          error.startsWith(
            `PostgreSQL at ${databaseLocation(databaseUrl ?? '')} (DATABASE_URL) takes no writes (`,
          ),
          error,
        ).toBe(true);
        expect(error).toContain('): point DATABASE_URL at the primary server');
      } finally {
        await admin.destroy();
        await drop();
      }
    },
    30_000,
  );

  it('refuses a masquerade by an account that is not an administrator: exit 1 and the reason', async () => {
    await run('user', 'create', '--email', 'pupil@proc.test', '--first', 'P', '--last', 'Q');
    const refused = await run(
      '--json',
      'masquerade',
      'start',
      '--admin',
      'pupil@proc.test',
      '--as',
      'pupil@proc.test',
    ).catch((e: { code: number; stderr: string }) => e);
    expect('code' in refused && refused.code).toBe(1);
    expect(JSON.parse(String('stderr' in refused ? refused.stderr : '')).error).toMatch(
      /only an administrator/,
    );
  }, 30_000);
});
