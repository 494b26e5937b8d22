import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionSchema } from '@frontdoor/contract';
import { DIALECTS, createTestApp, type TestApp } from '../testing/harness.ts';
import { HELP, UsageError, formatResult, parseAdminArgs, runAdminCommand } from './commands.ts';
import { createSession } from '../services/sessions.ts';
import { verifyPassword, findUserByEmail } from '../services/users.ts';

const PW = 'Admin-Created-Passw0rd';

describe.each(DIALECTS)('admin commands on $dialect', ({ dialect, skip }) => {
  let t: TestApp;
  const run = async (...argv: string[]) => {
    const { positionals, values } = parseAdminArgs(argv);
    return runAdminCommand(t.ctx, positionals, values);
  };
  beforeAll(async () => {
    if (!skip) t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

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
        '--password',
        PW,
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
        '--password',
        PW,
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
        '--password',
        PW,
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

      const { code: invite } = await run('invite', 'create', '--email', 'invitee@cli.test');
      expect(
        (await t.client().get(`/api/devportal/getInviteEmail/${String(invite)}`)).json().payload.email,
      ).toBe('invitee@cli.test');
      const { messages } = await run('mailbox', 'list', '--to', 'invitee@cli.test');
      expect(JSON.stringify(messages)).toContain(`http://localhost:8080/invite/${String(invite)}`);

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
      });
      expect(await run('access-code', 'revoke', '--id', String(codeId))).toEqual({ revoked: 1 });
      expect((await t.client().get(`/api/accessCodes/login/${String(code)}/cli-sp`)).statusCode).toBe(404);
      expect((await run('audit', 'list', '--event', 'access-code.revoked')).entries).toHaveLength(1);

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

  it.skipIf(skip)('starts and stops a masquerade on the administrator live sessions', async () => {
    await run(
      'user',
      'create',
      '--email',
      'boss@cli.test',
      '--password',
      PW,
      '--first',
      'B',
      '--last',
      'S',
      '--role',
      'admin:1',
    );
    await run('user', 'create', '--email', 'kid@cli.test', '--password', PW, '--first', 'K', '--last', 'D');
    const boss = await findUserByEmail(t.db, 'boss@cli.test');
    const c = t.client().signInWith(await createSession(t.db, boss?.id ?? '', { now: t.clock.now() }));
    expect(await run('masquerade', 'start', '--admin', 'boss@cli.test', '--as', 'kid@cli.test')).toEqual({
      sessions: 1,
    });
    const during = sessionSchema.parse((await c.get('/api/auth/sig')).json());
    expect(during.loggedin && during.payload.signature.masq?.email).toBe('kid@cli.test');
    await run('masquerade', 'stop', '--admin', 'boss@cli.test');
    const after = sessionSchema.parse((await c.get('/api/auth/sig')).json());
    expect(after.loggedin && after.payload.signature.masq).toBeUndefined();
  });

  it.skipIf(skip)('refuses bad usage with a UsageError', async () => {
    await expect(run('sp', 'create', '--id', 'x', '--name', 'X')).rejects.toThrow(UsageError);
    await expect(run('sp', 'create', '--id', 'x', '--name', 'X', '--origin', 'ftp://x')).rejects.toThrow(
      /origin/,
    );
    await expect(
      run('user', 'create', '--email', 'weak@cli.test', '--password', 'weak', '--first', 'W', '--last', 'K'),
    ).rejects.toThrow(/password/);
    await expect(run('access-code', 'create', '--sp', 'nope', '--email', 'a@b.test')).rejects.toThrow(
      /service provider/,
    );
    await expect(run('realm', 'set', '--domain', 'a.test', '--type', 'Sometimes')).rejects.toThrow(/--type/);
    await expect(run('fly', 'away')).rejects.toThrow(/unknown command/);
    expect(() => parseAdminArgs(['--bogus'])).toThrow(UsageError);
  });
});

describe('admin CLI formatting', () => {
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
      'realm set',
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
  const run = (...args: string[]) => exec(process.execPath, ['--import', 'tsx', cli, ...args], { env });
  const createSp = (name: string) =>
    run('--json', 'sp', 'create', '--id', 'proc', '--name', name, '--origin', 'https://proc.test');

  it('creates a service provider in DATA_DIR and prints JSON', async () => {
    const { stdout } = await createSp('Proc');
    expect(JSON.parse(stdout)).toMatchObject({ sp_id: 'proc' });
    const help = await run('--help');
    expect(help.stdout).toContain('access-code create');
    const failed = await createSp('Again').catch((e: { code: number; stderr: string }) => e);
    expect('code' in failed && failed.code).toBe(1);
    expect(JSON.parse(String('stderr' in failed ? failed.stderr : '')).error).toBeTruthy();
  }, 30_000);
});
