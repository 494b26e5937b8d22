import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DestinationStream } from 'pino';
import { SESSION_COOKIE } from '@frontdoor/contract';
import {
  DIALECTS,
  TEST_PASSWORD,
  createTestApp,
  lastMail,
  seedServiceProvider,
  seedUser,
  type TestApp,
} from '../../test/harness.ts';
import { createAccessCode } from './access-codes.ts';
import { createInvite } from './invites.ts';
import { createLoginRequest } from './login-requests.ts';
import { LOGGED_URL_CHARS, createLogger, terminalDestination } from './logger.ts';
import { REQUEST_TIMEOUT_MS } from '../app.ts';

/** A destination keeping every line the logger writes. */
function capture(): DestinationStream & { lines: string[] } {
  const lines: string[] = [];
  return { lines, write: (line: string) => void lines.push(line) };
}

/** The secrets that show in the lines, as they stand alone (not inside a longer number or id). */
const leaked = (lines: string[], secrets: string[]) => {
  const text = lines.join('');
  return secrets.filter((secret) =>
    new RegExp(`(?<![A-Za-z0-9])${secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9])`, 'i').test(
      text,
    ),
  );
};

describe('createLogger', () => {
  it("logs an error without the connection it carries (pg-pool's client: its parameters and cancel key)", () => {
    const out = capture();
    const logger = createLogger({ level: 'info', destination: out });
    const err = Object.assign(new Error('Connection terminated unexpectedly'), {
      code: 'ECONNRESET',
      client: { processID: 4242, secretKey: 987654321, connectionParameters: { user: 'frontdoor' } },
    });
    logger.warn({ err }, 'PostgreSQL closed a connection; the next query opens another');
    const entry = JSON.parse(out.lines[0] ?? '') as { err: Record<string, unknown> };
    expect(entry.err).toMatchObject({ message: 'Connection terminated unexpectedly', code: 'ECONNRESET' });
    expect(entry.err.stack).toEqual(expect.any(String));
    expect(out.lines.join('')).not.toMatch(/secretKey|987654321|connectionParameters/);
  });

  it('redacts secret fields and headers, and masks addresses in any text', () => {
    const out = capture();
    const logger = createLogger({ level: 'info', destination: out });
    const err = Object.assign(new Error('550 <ada@school.test>: Recipient address rejected'), {
      rejected: ['ada@school.test'],
    });
    logger.info(
      {
        email: 'ada@school.test',
        body: {
          un: 'ada@school.test',
          code: '12345678',
          pw: 'Pa55-word-secret',
          confirmPw: 'Pa55-word-secret',
        },
        input: { hash: 'h4sh-value', token: 't0ken-value', cookie_hash: 'c00kie-hash' },
        upstream: { headers: { authorization: 'Basic c2VjcmV0', cookie: 'fd_session=s3ssion' } },
        res: { headers: { 'set-cookie': 'fd_session=s3ssion; HttpOnly' } },
        nested: { user: { password: 'Pa55-word-secret' } },
        err,
      },
      'everything at once',
    );
    const [line = ''] = out.lines;
    const entry = JSON.parse(line) as Record<string, Record<string, unknown>>;
    expect(entry.body).toEqual({
      un: '[Redacted]',
      code: '[Redacted]',
      pw: '[Redacted]',
      confirmPw: '[Redacted]',
    });
    expect(entry.upstream).toEqual({ headers: { authorization: '[Redacted]', cookie: '[Redacted]' } });
    expect(entry.err?.message).toBe('550 <:email>: Recipient address rejected');
    expect(
      leaked(out.lines, ['ada@school.test', '12345678', 'Pa55-word-secret', 'h4sh-value', 't0ken-value']),
    ).toEqual([]);
    expect(leaked(out.lines, ['c00kie-hash', 'c2VjcmV0', 's3ssion'])).toEqual([]);
  });

  it('redacts a secret key at any depth and in any case', () => {
    const out = capture();
    createLogger({ level: 'info', destination: out }).info(
      {
        upstream: {
          response: { body: { token: 'deep-t0ken-value' } },
          headers: { Authorization: 'Bearer b3arer-value' },
        },
        attempts: [{ Password: 'Pa55-in-a-list' }],
      },
      'three levels down',
    );
    const entry = JSON.parse(out.lines[0] ?? '') as { upstream: { response: { body: unknown } } };
    expect(entry.upstream.response.body).toEqual({ token: '[Redacted]' });
    expect(leaked(out.lines, ['deep-t0ken-value', 'b3arer-value', 'Pa55-in-a-list'])).toEqual([]);
  });

  it("shows error codes (an error's own, an answer's contract code) and redacts every other code", () => {
    const out = capture();
    const err = Object.assign(new Error('Unsupported Media Type'), {
      code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
    });
    createLogger({ level: 'info', destination: out }).info(
      {
        err,
        outbox: { err: { code: 'SQLITE_BUSY', cause: { code: 'ECONNREFUSED' } } },
        code: 'addressFailureLimit',
        body: { code: '12345678', un: 'ada@school.test' },
        callback: { code: 'SplxlOBeZQQYbYS6WxSbIA', state: 'xyz' },
        upstream: { error: { code: 'K7Q2ZX1' } },
        look: { code: 'ECONNREFUSED' },
      },
      'codes of every kind',
    );
    const entry = JSON.parse(out.lines[0] ?? '') as Record<string, Record<string, unknown>>;
    expect(entry.err?.code).toBe('FST_ERR_CTP_INVALID_MEDIA_TYPE');
    expect(entry.outbox).toEqual({ err: { code: 'SQLITE_BUSY', cause: { code: 'ECONNREFUSED' } } });
    expect(entry.code).toBe('addressFailureLimit');
    expect(entry.body?.code).toBe('[Redacted]');
    expect(entry.callback?.code).toBe('[Redacted]');
    expect(entry.upstream?.error).toEqual({ code: '[Redacted]' });
    // an identifier in capitals passes only as an error's own code
    expect(entry.look?.code).toBe('[Redacted]');
    expect(leaked(out.lines, ['12345678', 'SplxlOBeZQQYbYS6WxSbIA', 'K7Q2ZX1'])).toEqual([]);
  });

  it("logs a request's URL scrubbed, keeping its method and address", () => {
    const out = capture();
    createLogger({ level: 'info', destination: out }).info(
      { req: { method: 'GET', url: '/api/accessCodes/login/123456/mathworld', ip: '203.0.113.7' } },
      'incoming request',
    );
    expect(JSON.parse(out.lines[0] ?? '')).toMatchObject({
      req: { method: 'GET', url: '/api/accessCodes/login/:code/mathworld', remoteAddress: '203.0.113.7' },
    });
  });
});

describe('request log', () => {
  it('writes one line per request, once it has completed: method, scrubbed URL, status and time', async () => {
    const out = capture();
    const t = await createTestApp('sqlite', { logger: createLogger({ level: 'info', destination: out }) });
    try {
      expect((await t.app.inject({ url: '/assets/cfg/config.json?next=ada@school.test' })).statusCode).toBe(
        200,
      );
      const lines = out.lines
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((l) => l.reqId);
      expect(lines).toEqual([
        expect.objectContaining({
          msg: 'request completed',
          req: expect.objectContaining({ method: 'GET', url: '/assets/cfg/config.json' }),
          res: { statusCode: 200 },
          responseTime: expect.any(Number),
        }),
      ]);
    } finally {
      await t.close();
    }
  });
});

describe('what an operator reads', () => {
  it("writes a probe's, a scrape's and a static file's answers at debug: a line for the page and for what goes wrong", async () => {
    const dist = mkdtempSync(path.join(tmpdir(), 'fd-quiet-'));
    mkdirSync(path.join(dist, 'static'));
    writeFileSync(
      path.join(dist, 'index.html'),
      '<!doctype html><html><head></head><div id="root"></div></html>',
    );
    writeFileSync(path.join(dist, 'static', 'index-abc123.js'), '"a hashed file"');
    const out = capture();
    const token = 'm'.repeat(32);
    const t = await createTestApp('sqlite', {
      env: { WEB_DIST: dist, METRICS: 'on', METRICS_TOKEN: token },
      logger: createLogger({ level: 'info', destination: out }),
    });
    try {
      const scrape = { authorization: `Bearer ${token}` };
      for (const [url, headers] of [
        ['/healthz', {}],
        ['/readyz', {}],
        ['/metrics', scrape],
        ['/static/index-abc123.js', {}],
      ] as const)
        expect((await t.app.inject({ url, headers })).statusCode, url).toBe(200);
      expect((await t.app.inject({ url: '/log-in', headers: { accept: 'text/html' } })).statusCode).toBe(200);
      expect(
        (await t.app.inject({ url: '/metrics', headers: { authorization: 'Bearer guess' } })).statusCode,
      ).toBe(401);
      const lines = out.lines
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((l) => l.reqId);
      expect(
        lines.map((l) => [
          l.msg,
          (l.req as { url: string }).url,
          (l.res as { statusCode: number }).statusCode,
        ]),
      ).toEqual([
        ['request completed', '/log-in', 200],
        ['request completed', '/metrics', 401],
      ]);
    } finally {
      await t.close();
      rmSync(dist, { recursive: true, force: true });
    }
  });
});

describe('what a client can make a request line cost', () => {
  it('keeps at most 512 characters of its URL and 255 of its Host, and none of its other headers', async () => {
    const out = capture();
    const t = await createTestApp('sqlite', { logger: createLogger({ level: 'info', destination: out }) });
    try {
      await t.app.inject({
        url: `/${'a'.repeat(10_000)}`,
        headers: { host: `${'h'.repeat(2_800)}.test`, 'accept-version': 'v'.repeat(3_000) },
      });
      const [line] = out.lines.filter((l) => l.includes('request completed'));
      const req = (JSON.parse(line ?? '{}') as { req: Record<string, unknown> }).req;
      expect(String(req.url)).toHaveLength(LOGGED_URL_CHARS + 1);
      expect(String(req.host)).toHaveLength(256);
      expect(req).not.toHaveProperty('version');
      expect(line?.length).toBeLessThan(2_000);
    } finally {
      await t.close();
    }
  });

  it('gives a whole request a minute to arrive (Fastify waits forever by default)', async () => {
    const t = await createTestApp('sqlite');
    try {
      expect(t.app.server.requestTimeout).toBe(REQUEST_TIMEOUT_MS);
      expect(REQUEST_TIMEOUT_MS).toBe(60_000);
    } finally {
      await t.close();
    }
  });
});

describe('a client gone before its request is handled', () => {
  it('writes no error line: a phone that lost its signal is no internal failure', async () => {
    const out = capture();
    const t = await createTestApp('sqlite', {
      listen: true,
      logger: createLogger({ level: 'info', destination: out }),
    });
    try {
      const { port } = new URL(t.baseUrl);
      const gone = (request: string, end: (socket: Socket) => void) =>
        new Promise<void>((resolve) => {
          const socket = connect(Number(port), '127.0.0.1', () => {
            socket.write(request);
            setImmediate(() => end(socket));
          });
          socket.on('error', () => {});
          socket.on('close', () => resolve());
        });
      for (let i = 0; i < 3; i++) {
        for (const path of ['/api/auth/sig', '/oidc/oauth2/authorize?client_id=x'])
          await gone(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`, (socket) => socket.resetAndDestroy());
        // a body the parser refuses, from a client that then hangs up
        await gone(
          'GET /api/auth/sig HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
          (socket) => void setTimeout(50).then(() => socket.destroy()),
        );
      }
      await setTimeout(300);
      const errors = out.lines.filter((line) => (JSON.parse(line) as { level: number }).level >= 50);
      expect(errors).toEqual([]);
      // and the server still answers
      expect((await fetch(`${t.baseUrl}/api/auth/sig`)).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe('request log of an error answer', () => {
  it("carries the answer's code, and a parse error's own code unredacted", async () => {
    const out = capture();
    const t = await createTestApp('sqlite', { logger: createLogger({ level: 'info', destination: out }) });
    try {
      const browser = t.client();
      const res = await browser.post('/api/auth/validateEmail', '<a/>', {
        'content-type': 'application/xml',
      });
      expect(res.statusCode).toBe(415);
      const lines = out.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      const mine = lines.filter((l) => l.reqId === res.headers['x-request-id']);
      expect(mine).toEqual([
        expect.objectContaining({
          msg: 'bad request',
          err: expect.objectContaining({ code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE' }),
        }),
        expect.objectContaining({ msg: 'request completed', res: { statusCode: 415 }, code: 'badRequest' }),
      ]);
      // an answer without an error names no code
      expect(lines.find((l) => l.msg === 'request completed' && !('code' in l))).toBeDefined();
    } finally {
      await t.close();
    }
  });
});

describe.each(DIALECTS)('no secret in the server log on $dialect', ({ dialect, skip }) => {
  const out = capture();
  let t: TestApp;
  beforeAll(async () => {
    if (!skip)
      t = await createTestApp(dialect, { logger: createLogger({ level: 'debug', destination: out }) });
  });
  afterAll(async () => t?.close());

  it.skipIf(skip)(
    'after an access-code sign-in, a password reset and an email verification, the lines hold none of their secrets',
    async () => {
      const secrets: string[] = [];
      const html = { accept: 'text/html' };

      // access code → cookie hash → auth/cookie with the login csrf as token
      await seedServiceProvider(t, 'mathworld');
      const student = await seedUser(t, { email: 'coded.student@school.test' });
      const { code: accessCode } = await createAccessCode(t.ctx, { spId: 'mathworld', userId: student.id });
      const csrf = await createLoginRequest(
        t.db,
        { spId: 'mathworld', url: 'https://app.mathworld.test/', isTeacher: false },
        t.clock.now(),
      );
      const browser = t.client();
      expect((await browser.get(`/log-in/${csrf}`, html)).statusCode).toBe(503);
      expect((await browser.get(`/api/gateway/getCsrfLogin/${csrf}`)).statusCode).toBe(200);
      const signIn = await browser.get(`/api/accessCodes/login/${accessCode}/mathworld`);
      const hash = (signIn.json() as { payload: { cookie_hash: string } }).payload.cookie_hash;
      const cookie = await browser.get(
        `/api/auth/cookie?${new URLSearchParams({ hash, return_url: 'https://app.mathworld.test/', token: csrf })}`,
      );
      expect(cookie.statusCode).toBe(302);
      secrets.push(accessCode, csrf, hash, browser.cookies.get(SESSION_COOKIE) ?? '');

      // password reset: sendreset, the mailed code, the page of the mail's link, the reset, a sign-in
      const resetEmail = 'forgetful.teacher@school.test';
      await seedUser(t, { email: resetEmail });
      const newPassword = 'Brand-New-Passw0rd!';
      expect((await t.client().post('/api/cognito/sendreset', { un: resetEmail })).statusCode).toBe(200);
      const { code: resetCode = '' } = await lastMail(t, resetEmail);
      await t
        .client()
        .get(`/password-reset?${new URLSearchParams({ code: resetCode, email: resetEmail })}`, html);
      const reset = await t.client().post('/api/cognito/reset', {
        un: resetEmail,
        code: resetCode,
        pw: newPassword,
        confirmPw: newPassword,
      });
      expect(reset.statusCode).toBe(200);
      const login = await t.client().post('/api/cognito/login', { email: resetEmail, password: newPassword });
      expect(login.statusCode).toBe(200);
      secrets.push(resetEmail, resetCode, newPassword);

      // email verification: sign-up, the mailed code, the page of the mail's link, the confirmation
      const newEmail = 'New.Teacher@School.test';
      const signup = await t.client().post('/api/cognito/signup', {
        first: 'Grace',
        last: 'Hopper',
        email: newEmail,
        pw: TEST_PASSWORD,
        description: 'teacher',
      });
      expect(signup.statusCode).toBe(200);
      const { code: verifyCode = '' } = await lastMail(t, newEmail.toLowerCase());
      await t.client().get(`/validate?${new URLSearchParams({ em: newEmail, vc: verifyCode })}`, html);
      const confirm = await t.client().post('/api/cognito/confirm', { un: newEmail, code: verifyCode });
      expect(confirm.statusCode).toBe(200);
      secrets.push(newEmail, verifyCode, TEST_PASSWORD);

      // the calls with an email or a code in their path
      const unconfirmed = 'unconfirmed.pupil@school.test';
      await seedUser(t, { email: unconfirmed, confirmed: false });
      await t.client().get(`/api/cognito/resend_verification/${encodeURIComponent(unconfirmed)}`);
      await t.client().get(`/api/cognito/get_account_type/${encodeURIComponent(unconfirmed)}`);
      const invited = 'invited.teacher@school.test';
      const { code: invite } = await createInvite(t.ctx, invited);
      expect((await t.client().get(`/api/devportal/getInviteEmail/${invite}`)).statusCode).toBe(200);
      await t.client().get(`/invite/${invite}`, html);
      secrets.push(unconfirmed, invited, invite);

      const all = [...secrets, ...secrets.filter((s) => s.includes('@')).map(encodeURIComponent)];
      expect(all.every(Boolean)).toBe(true);
      expect(leaked(out.lines, all)).toEqual([]);
      // the requests were logged, with their URLs scrubbed
      const urls = out.lines.map((line) => (JSON.parse(line) as { req?: { url?: string } }).req?.url);
      expect(urls).toEqual(
        expect.arrayContaining([
          '/api/accessCodes/login/:code/mathworld',
          '/api/auth/cookie',
          '/password-reset',
          '/validate',
          '/api/cognito/get_account_type/:email',
          '/api/devportal/getInviteEmail/:code',
          '/log-in/:csrf',
        ]),
      );
    },
  );
});

describe('terminal destination (main.ts)', () => {
  it('pretty lines only for a development server whose stdout is a terminal; JSON otherwise', async () => {
    const tty = process.stdout.isTTY;
    try {
      process.stdout.isTTY = false;
      expect(await terminalDestination('development')).toBeUndefined();
      process.stdout.isTTY = true;
      expect(await terminalDestination('production')).toBeUndefined();
      expect(await terminalDestination(' Production ')).toBeUndefined();
      expect(typeof (await terminalDestination(undefined))?.write).toBe('function');
    } finally {
      process.stdout.isTTY = tty;
    }
  });
});
