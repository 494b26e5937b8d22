import { afterEach, describe, expect, it, vi } from 'vitest';
import { EventEmitter, once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { SMTPServer } from 'smtp-server';
import { loadConfig } from '../config.ts';
import { createDb } from '../db/index.ts';
import { smtpMailer, type Mailer, type MailMessage } from '../mail/mailer.ts';
import {
  DIALECTS,
  TEST_PASSWORD,
  createTestApp,
  createTestDb,
  lastMail,
  seedUser,
  type TestApp,
} from '../../test/harness.ts';
import { TEST_SECRET } from '../../test/test-db.ts';
import { createInvite } from './invites.ts';
import { createLogger } from './logger.ts';
import {
  OUTBOX_RETRY,
  OUTBOX_SENDS_AT_ONCE,
  OUTBOX_SLOW_SEND_MS,
  OUTBOX_STALL_WARN_MS,
  createOutbox,
  enqueue,
  retryDelayMs,
} from './outbox.ts';

describe('outbox retry schedule', () => {
  it('waits 30 s after the first failure, doubling up to an hour', () => {
    expect([1, 2, 3, 4, 7, 8, 9].map(retryDelayMs)).toEqual([
      30_000, 60_000, 120_000, 240_000, 1_920_000, 3_600_000, 3_600_000,
    ]);
    const total = Array.from({ length: OUTBOX_RETRY.maxAttempts - 1 }, (_, i) => retryDelayMs(i + 1)).reduce(
      (a, b) => a + b,
    );
    // a few hours of outage are ridden out; the row fails after that
    expect(total / 3_600_000).toBeCloseTo(3.1, 1);
  });
});

/** A logger at info whose lines are kept, as written. */
function capturedLog() {
  const lines: string[] = [];
  const logger = createLogger({ level: 'info', destination: { write: (line: string) => lines.push(line) } });
  return { lines, logger };
}

/** A mail server refusing connections until `up()` is called. */
function mailServerDown(): { flaky: Mailer; up: () => void } {
  let down = true;
  return {
    flaky: {
      send: async () => {
        if (down) throw new Error('connect ECONNREFUSED 127.0.0.1:25');
      },
      close: async () => {},
    },
    up: () => {
      down = false;
    },
  };
}

/** A relay that holds its answer to each slow… mail until hold()'s function is called, and counts its sends at once. */
function slowRelay() {
  let gate = Promise.resolve();
  const relay = {
    sending: 0,
    most: 0,
    sent: [] as string[],
    /** From now on the relay holds its answer to each slow… mail until the function returned is called. */
    hold: () => {
      let answer = () => {};
      gate = new Promise<void>((resolve) => (answer = resolve));
      return answer;
    },
    mailer: {
      send: async (message) => {
        relay.sending += 1;
        relay.most = Math.max(relay.most, relay.sending);
        await (message.to.startsWith('slow') ? gate : sleep(2));
        relay.sending -= 1;
        relay.sent.push(message.to);
      },
      close: async () => {},
    } satisfies Mailer,
  };
  return relay;
}

/**
 * An SMTP relay that takes every message but does not answer the end of DATA of the first `hang`
 * until answer() is called, and answers the rest at once; `events` says 'message' for each it takes.
 */
async function hangingRelay(hang: number) {
  const events = new EventEmitter();
  const received: string[] = [];
  const held: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    disableReverseLookup: true,
    onData(stream, session, callback) {
      stream.resume();
      stream.on('end', () => {
        received.push(session.envelope.rcptTo.map((r) => r.address).join());
        if (held.length < hang) held.push(() => callback());
        else callback();
        events.emit('message');
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };
  return {
    received,
    mailer: smtpMailer(`smtp://127.0.0.1:${port}`, {
      from: 'no-reply@portal.test',
      address: 'no-reply@portal.test',
      replyTo: undefined,
    }),
    /** Resolves once the relay has taken `count` messages. */
    taken: async (count: number) => {
      while (received.length < count) await once(events, 'message');
    },
    answer: () => held.splice(0).forEach((answer) => answer()),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A mail row to `to`, due now. */
const queueMail = (app: TestApp, to: string) =>
  enqueue(app.db, {
    kind: 'mail',
    payload: JSON.stringify({ to, subject: 's', text: 't', html: 'h' }),
    userId: null,
    now: app.clock.now(),
  });

describe.each(DIALECTS)('the outbox on $dialect', ({ dialect, skip }) => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });
  const row = async (app: TestApp, id: number) =>
    app.db.selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const onlyRow = async (app: TestApp) => {
    const rows = await app.db.selectFrom('outbox').selectAll().execute();
    expect(rows).toHaveLength(1);
    return rows[0]!;
  };

  it.skipIf(skip)(
    'writes a mail in the transaction of its code, sends it when drained, then keeps no copy',
    async () => {
      const app = (t = await createTestApp(dialect));
      await seedUser(app, { email: 'queued@school.test' });
      expect(
        (await app.client().post('/api/cognito/sendreset', { un: 'queued@school.test' })).statusCode,
      ).toBe(200);
      const queued = await onlyRow(app);
      expect(queued).toMatchObject({ kind: 'mail', attempts: 0, next_attempt_at: app.clock.now() });
      expect(await app.db.selectFrom('email_codes').select('id').execute()).toHaveLength(1);
      expect(await app.db.selectFrom('mailbox').select('id').execute()).toEqual([]);

      expect(await app.ctx.outbox.drain()).toBe(1);
      const { code } = await lastMail(app, 'queued@school.test');
      expect(code).toMatch(/^\d{8}$/);
      expect(await row(app, queued.id)).toMatchObject({
        attempts: 1,
        payload: null,
        next_attempt_at: null,
        claimed_by: null,
        delivered_at: app.clock.now(),
      });
    },
  );

  it.skipIf(skip)(
    'retries with exponential backoff, then fails the row and logs its id and kind at error level, never its address',
    async () => {
      const { lines, logger } = capturedLog();
      const refusing: Mailer = {
        send: async (message) => {
          throw new Error(`550 <${message.to}>: Recipient address rejected`);
        },
        close: async () => {},
      };
      const app = (t = await createTestApp(dialect, { mailer: refusing, logger }));
      await createInvite(app.ctx, 'nobody@school.test');
      const { id } = await onlyRow(app);

      for (let attempt = 1; attempt <= OUTBOX_RETRY.maxAttempts; attempt++) {
        expect(await app.ctx.outbox.drain()).toBe(0);
        const after = await row(app, id);
        expect(after.attempts).toBe(attempt);
        expect(after.last_error).toBe('550 <nobody@school.test>: Recipient address rejected');
        if (attempt === OUTBOX_RETRY.maxAttempts) break;
        const delay = retryDelayMs(attempt);
        expect(after.next_attempt_at).toBe(app.clock.now() + delay);
        // not a moment before its time
        app.clock.advance(delay - 1);
        expect(await app.ctx.outbox.drain()).toBe(0);
        expect((await row(app, id)).attempts).toBe(attempt);
        app.clock.advance(1);
      }
      const failed = await row(app, id);
      expect(failed).toMatchObject({ failed_at: app.clock.now(), next_attempt_at: null, delivered_at: null });
      // kept for an operator to look into until it is pruned
      expect(failed.payload).toContain('/invite/');
      app.clock.advance(24 * 60 * 60 * 1000);
      expect(await app.ctx.outbox.drain()).toBe(0);
      expect((await row(app, id)).attempts).toBe(OUTBOX_RETRY.maxAttempts);

      const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      const outboxEntries = entries.filter((e) => e.outboxId === id);
      expect(outboxEntries.filter((e) => e.level === 40)).toHaveLength(OUTBOX_RETRY.maxAttempts - 1);
      const errors = outboxEntries.filter((e) => e.level === 50);
      expect(errors).toEqual([
        expect.objectContaining({
          outboxId: id,
          kind: 'mail',
          attempts: OUTBOX_RETRY.maxAttempts,
          error: '550 <:email>: Recipient address rejected',
        }),
      ]);
      expect(lines.join('')).not.toContain('nobody@school.test');
    },
  );

  it.skipIf(skip)(
    "says when a mail goes out at the first attempt, naming the account and the sign-up's request, whose own line names the account too",
    async () => {
      const { lines, logger } = capturedLog();
      const app = (t = await createTestApp(dialect, { logger }));
      const res = await app.client().post('/api/cognito/signup', {
        first: 'Ada',
        last: 'Lovelace',
        email: 'first-try@school.test',
        pw: TEST_PASSWORD,
        description: 'teacher',
      });
      expect(res.statusCode).toBe(200);
      const { id, user_id: userId } = await onlyRow(app);
      expect(await app.ctx.outbox.drain()).toBe(1);
      const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      const signup = entries.find(
        (e) => e.msg === 'request completed' && (e.req as { url: string }).url === '/api/cognito/signup',
      );
      expect(signup).toMatchObject({ userId, reqId: expect.any(String) });
      expect(entries.filter((e) => e.outboxId === id)).toEqual([
        expect.objectContaining({
          level: 30,
          msg: 'outbox: delivered',
          attempts: 1,
          userId,
          queuedByReqId: signup?.reqId,
        }),
      ]);
    },
  );

  it.skipIf(skip)(
    'says when a mail goes out after failed attempts: the end of the warnings an operator read',
    async () => {
      const { lines, logger } = capturedLog();
      const { flaky, up } = mailServerDown();
      const app = (t = await createTestApp(dialect, { mailer: flaky, logger }));
      await createInvite(app.ctx, 'later@school.test');
      const { id } = await onlyRow(app);
      expect(await app.ctx.outbox.drain()).toBe(0);
      up();
      app.clock.advance(retryDelayMs(1));
      expect(await app.ctx.outbox.drain()).toBe(1);
      const said = lines
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((e) => e.outboxId === id)
        .map((e) => [e.level, e.msg, e.attempts]);
      expect(said).toEqual([
        [40, 'outbox: delivery failed, retrying', 1],
        [30, 'outbox: delivered after retrying', 2],
      ]);
    },
  );

  it.skipIf(skip)(
    'a refused SMTP login is one error line naming SMTP_URL a minute, not a warning per mail; the mails still retry',
    async () => {
      // a mail server that refuses every login, as one does a wrong password
      const server = new SMTPServer({
        allowInsecureAuth: true,
        disabledCommands: ['STARTTLS'],
        disableReverseLookup: true,
        onAuth: (_auth, _session, callback) =>
          callback(
            Object.assign(new Error('5.7.8 Authentication credentials invalid'), { responseCode: 535 }),
          ),
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.server.address() as { port: number };
      const mailer = smtpMailer(`smtp://fd:wrong-pass@127.0.0.1:${port}`, {
        from: 'no-reply@portal.test',
        address: 'no-reply@portal.test',
        replyTo: undefined,
      });
      const { lines, logger } = capturedLog();
      try {
        const app = (t = await createTestApp(dialect, { mailer, logger }));
        for (let i = 0; i < 5; i++)
          await enqueue(app.db, {
            kind: 'mail',
            payload: JSON.stringify({ to: `p${i}@school.test`, subject: 's', text: 't', html: 'h' }),
            userId: null,
            now: app.clock.now(),
          });
        const said = () =>
          lines
            .map((line) => JSON.parse(line) as Record<string, unknown>)
            .filter((e) => typeof e.outboxId === 'number');
        expect(await app.ctx.outbox.drain()).toBe(0);
        expect(said()).toEqual([
          expect.objectContaining({
            level: 50,
            msg: expect.stringMatching(
              /^outbox: SMTP_URL: the mail server refused the login \(535 5\.7\.8 Authentication credentials invalid\): check the user and password/,
            ),
            error: expect.stringMatching(/^EAUTH at AUTH PLAIN: /),
          }),
        ]);
        const rows = await app.db.selectFrom('outbox').selectAll().execute();
        expect(rows).toHaveLength(5);
        for (const row of rows)
          expect(row).toMatchObject({
            attempts: 1,
            failed_at: null,
            rejected_at: null,
            next_attempt_at: app.clock.now() + retryDelayMs(1),
          });
        // their retries within the minute add no line; the next minute's say it again, once
        app.clock.advance(retryDelayMs(1));
        expect(await app.ctx.outbox.drain()).toBe(0);
        expect(said()).toHaveLength(1);
        app.clock.advance(OUTBOX_RETRY.settingsErrorLogMs);
        expect(await app.ctx.outbox.drain()).toBe(0);
        expect(said().map((e) => e.level)).toEqual([50, 50]);
        expect(lines.join('')).not.toContain('wrong-pass');
      } finally {
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  );

  it.skipIf(skip)(
    "names on each delivery line the account whose request queued the mail, as the request's own line does, that request's reqId and which mail it is",
    async () => {
      const { lines, logger } = capturedLog();
      const { flaky, up } = mailServerDown();
      const app = (t = await createTestApp(dialect, { mailer: flaky, logger }));
      const user = await seedUser(app, { email: 'traced@school.test' });
      expect(
        (await app.client().post('/api/cognito/sendreset', { un: 'traced@school.test' })).statusCode,
      ).toBe(200);
      const { id } = await onlyRow(app);
      expect(await app.ctx.outbox.drain()).toBe(0);
      up();
      app.clock.advance(retryDelayMs(1));
      expect(await app.ctx.outbox.drain()).toBe(1);
      const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      const deliveries = entries.filter((e) => e.outboxId === id);
      expect(deliveries.map((e) => e.userId)).toEqual([user.id, user.id]);
      // which mail it was, never its code
      expect(deliveries.map((e) => e.template)).toEqual(['reset', 'reset']);
      const requestLine = entries.find((e) => e.userId === user.id && e.outboxId === undefined);
      expect(requestLine?.reqId).toEqual(expect.any(String));
      expect(deliveries.map((e) => e.queuedByReqId)).toEqual([requestLine?.reqId, requestLine?.reqId]);
      expect(lines.join('')).not.toContain('traced@school.test');
    },
  );

  it.skipIf(skip)('takes back the row of a worker that died holding it once its lease is over', async () => {
    const app = (t = await createTestApp(dialect));
    await createInvite(app.ctx, 'orphan@school.test');
    const { id } = await onlyRow(app);
    await app.db
      .updateTable('outbox')
      .set({
        claimed_by: 'crashed-worker',
        claimed_until: app.clock.now() + OUTBOX_RETRY.leaseMs,
        attempts: 1,
      })
      .where('id', '=', id)
      .execute();
    expect(await app.ctx.outbox.drain()).toBe(0);
    expect(await app.ctx.outbox.deliver(id)).toBe(false);
    app.clock.advance(OUTBOX_RETRY.leaseMs + 1);
    expect(await app.ctx.outbox.drain()).toBe(1);
    expect((await lastMail(app, 'orphan@school.test')).mail?.subject).toMatch(/invit/i);
    expect(await row(app, id)).toMatchObject({ attempts: 2, claimed_by: null });
  });

  it.skipIf(skip)(
    'a mail the relay is slow to answer holds one of a few sends at once, not every mail behind it',
    async () => {
      const relay = slowRelay();
      const app = (t = await createTestApp(dialect, { mailer: relay.mailer }));
      const write = (to: string) => queueMail(app, to);
      let answer = relay.hold();
      await write('slow@school.test');
      for (let i = 0; i < 8; i++) await write(`quick${i}@school.test`);
      const drained = app.ctx.outbox.drain();
      await vi.waitFor(() => expect(relay.sent).toHaveLength(8), { timeout: 5_000, interval: 10 });
      expect(relay.sent.every((to) => to.startsWith('quick'))).toBe(true);
      expect(relay.most).toBe(OUTBOX_SENDS_AT_ONCE);
      answer();
      expect(await drained).toBe(9);

      // as many slow mails as sends at once hold the rest until one is answered: a few, never unbounded
      answer = relay.hold();
      relay.most = 0;
      relay.sent.length = 0;
      for (let i = 0; i < OUTBOX_SENDS_AT_ONCE; i++) await write(`slow${i}@school.test`);
      await write('quick-after@school.test');
      const second = app.ctx.outbox.drain();
      await vi.waitFor(() => expect(relay.sending).toBe(OUTBOX_SENDS_AT_ONCE), {
        timeout: 5_000,
        interval: 10,
      });
      await sleep(50);
      expect(relay.sent).toEqual([]);
      answer();
      expect(await second).toBe(OUTBOX_SENDS_AT_ONCE + 1);
      expect(relay.most).toBe(OUTBOX_SENDS_AT_ONCE);
    },
  );

  it.skipIf(skip)(
    'a started worker sends mail queued while a slow one is under way beside it, a few at once',
    async () => {
      const relay = slowRelay();
      const answer = relay.hold();
      const app = (t = await createTestApp(dialect, { mailer: relay.mailer }));
      const write = async (to: string) => {
        await queueMail(app, to);
        app.ctx.outbox.notify();
      };
      app.ctx.outbox.start();
      try {
        // the worker is under way with one slow mail, its other lanes ended for want of rows
        await write('slow@school.test');
        await vi.waitFor(() => expect(relay.sending).toBe(1), { timeout: 5_000, interval: 10 });
        await sleep(50);
        for (let i = 0; i < 6; i++) await write(`quick${i}@school.test`);
        // well before the worker's poll would come round
        await vi.waitFor(() => expect(relay.sent).toHaveLength(6), {
          timeout: OUTBOX_RETRY.pollMs / 2,
          interval: 10,
        });
        expect(relay.sent.every((to) => to.startsWith('quick'))).toBe(true);
        expect(relay.most).toBeLessThanOrEqual(OUTBOX_SENDS_AT_ONCE);
        answer();
        await vi.waitFor(() => expect(relay.sent).toContain('slow@school.test'), {
          timeout: 5_000,
          interval: 10,
        });
      } finally {
        answer();
        await app.ctx.outbox.stop();
      }
    },
  );

  it.skipIf(skip)(
    'three mails a relay hangs on after DATA give their sends back: a mail queued after them goes while they wait, and one warn line says so',
    async () => {
      const relay = await hangingRelay(OUTBOX_SENDS_AT_ONCE);
      // the log kept, and each line told as it is written
      const lines: string[] = [];
      const logged = new EventEmitter();
      const write = (line: string) => {
        lines.push(line);
        logged.emit('line', line);
      };
      const logger = createLogger({ level: 'info', destination: { write } });
      const app = (t = await createTestApp(dialect, { mailer: relay.mailer, logger }));
      const said = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      app.ctx.outbox.start();
      try {
        for (let i = 0; i < OUTBOX_SENDS_AT_ONCE; i++) await queueMail(app, `hung${i}@school.test`);
        app.ctx.outbox.notify();
        await relay.taken(OUTBOX_SENDS_AT_ONCE);

        // the relay has kept them waiting OUTBOX_SLOW_SEND_MS: the next wake (a request's notify, or the poll) sends beside them
        app.clock.advance(OUTBOX_SLOW_SEND_MS);
        const fresh = await queueMail(app, 'fresh-code@school.test');
        const delivered = new Promise<void>((resolve) =>
          logged.on('line', (line: string) => {
            const entry = JSON.parse(line) as Record<string, unknown>;
            if (entry.outboxId === fresh && entry.msg === 'outbox: delivered') resolve();
          }),
        );
        app.ctx.outbox.notify();
        await delivered;
        expect(relay.received.at(-1)).toBe('fresh-code@school.test');
        const hung = await app.db
          .selectFrom('outbox')
          .select(['delivered_at', 'claimed_by'])
          .where('id', '!=', fresh)
          .execute();
        expect(hung).toHaveLength(OUTBOX_SENDS_AT_ONCE);
        expect(hung.every((row) => row.delivered_at === null && row.claimed_by !== null)).toBe(true);
        // until now nothing was worth a warning; a minute on, one line, not one per wake or per mail
        expect(said().filter((e) => (e.level as number) >= 40)).toEqual([]);
        app.clock.advance(OUTBOX_STALL_WARN_MS - OUTBOX_SLOW_SEND_MS);
        app.ctx.outbox.notify();
        app.ctx.outbox.notify();
        expect(said().filter((e) => (e.level as number) >= 40)).toEqual([
          expect.objectContaining({
            level: 40,
            unanswered: OUTBOX_SENDS_AT_ONCE,
            msg: expect.stringMatching(/^outbox: the mail server has not answered 3 mails for over a minute/),
          }),
        ]);
      } finally {
        relay.answer();
        await app.ctx.outbox.stop();
        await relay.close();
      }
      // answered at last, each once
      expect(await app.db.selectFrom('outbox').select('delivered_at').execute()).toEqual(
        Array.from({ length: OUTBOX_SENDS_AT_ONCE + 1 }, () => ({ delivered_at: expect.any(Number) })),
      );
      expect(relay.received).toHaveLength(OUTBOX_SENDS_AT_ONCE + 1);
    },
  );

  it.skipIf(skip)('wakes a started worker at once: the mail is there moments after the request', async () => {
    const app = (t = await createTestApp(dialect));
    app.ctx.outbox.start();
    try {
      const res = await app.client().post('/api/cognito/signup', {
        first: 'Quick',
        last: 'Mail',
        email: 'quick@school.test',
        pw: 'Correct-Horse-9-Battery',
        description: 'teacher',
      });
      expect(res.statusCode).toBe(200);
      // well before the worker's poll would come round
      await vi.waitFor(
        async () => {
          const mail = await app.db
            .selectFrom('mailbox')
            .select('id')
            .where('to_address', '=', 'quick@school.test')
            .execute();
          expect(mail).toHaveLength(1);
        },
        { timeout: OUTBOX_RETRY.pollMs / 2, interval: 20 },
      );
    } finally {
      await app.ctx.outbox.stop();
    }
  });

  it.skipIf(skip)(
    'never sends a row twice from two workers draining one database at once (each on its own connections)',
    async () => {
      const { db, databaseUrl, drop } = await createTestDb(dialect);
      // PostgreSQL: a second pool, as a second instance has; SQLite: one writer, the same handle
      const other = databaseUrl ? createDb({ databaseUrl, dataDir: '.' }) : db;
      try {
        const config = loadConfig({ APP_ENV: 'development', SECRET: TEST_SECRET, WEB_DIST: '/nonexistent' });
        const logger = createLogger({ level: 'silent' });
        const now = () => Date.UTC(2026, 0, 15, 9);
        const sent: { worker: string; to: string }[] = [];
        const slowMailer = (worker: string): Mailer => ({
          send: async (message: MailMessage) => {
            await sleep(3);
            sent.push({ worker, to: message.to });
          },
          close: async () => {},
        });
        const rows = 40;
        for (let i = 0; i < rows; i++) {
          const message = { to: `r${i}@school.test`, subject: 's', text: 't', html: 'h' };
          await enqueue(db, { kind: 'mail', payload: JSON.stringify(message), userId: null, now: now() });
        }
        const a = createOutbox({ config, db, logger, now }, slowMailer('a'), 'worker-a');
        const b = createOutbox({ config, db: other, logger, now }, slowMailer('b'), 'worker-b');
        const [byA, byB] = await Promise.all([a.drain(), b.drain()]);

        expect(byA + byB).toBe(rows);
        expect(byA).toBeGreaterThan(0);
        expect(byB).toBeGreaterThan(0);
        expect(sent).toHaveLength(rows);
        expect(new Set(sent.map((s) => s.to)).size).toBe(rows);
        const outbox = await db.selectFrom('outbox').select(['attempts', 'delivered_at']).execute();
        // claimed exactly once each
        expect(outbox.every((r) => r.attempts === 1 && r.delivered_at === now())).toBe(true);
      } finally {
        if (other !== db) await other.destroy();
        await drop();
      }
    },
  );
});
