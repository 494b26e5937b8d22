import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBSCRIPTION_IDS, messages, realmPayload, storedSubscriptionsPayload } from '@frontdoor/contract';
import {
  DIALECTS,
  createTestApp,
  masqueradingClient,
  seedServiceProvider,
  seedUser,
  signedInClient,
  type TestApp,
} from '../../test/harness.ts';
import { startFakeServer, type FakeServer } from '../../test/fake-http.ts';
import { deleteUser } from '../services/user-admin.ts';
import { saveSubscriptions } from '../services/crm.ts';
import { createAccessCode } from '../services/access-codes.ts';
import { pruneExpired } from '../services/pruning.ts';
import { DAY_MS } from '../services/limits.ts';
import { CRM_HEADERS, OUTBOX_RETRY, crmSignature, retryFailed } from '../services/outbox.ts';

const CRM_SECRET = 'crm-webhook-secret-0123456789abcdef';

describe.each(DIALECTS)(
  'hs/subscription and v2/auth/microsoft-user-realm on $dialect',
  ({ dialect, skip }) => {
    let t: TestApp;
    let crm: FakeServer;
    let crmUp = true;
    let realm: FakeServer;
    let realmMode: 'ok' | 'down' | 'garbage' = 'ok';
    beforeAll(async () => {
      if (skip) return;
      crm = await startFakeServer((_req, _body, res) => {
        res.statusCode = crmUp ? 204 : 503;
        res.end();
      });
      realm = await startFakeServer((req, _body, res) => {
        const login = new URL(req.url ?? '/', 'http://x').searchParams.get('login') ?? '';
        if (realmMode === 'down') {
          res.statusCode = 500;
          return res.end('boom');
        }
        if (realmMode === 'garbage') return res.end('<html>not json');
        const type = login.endsWith('@contoso.test')
          ? 'Managed'
          : login.endsWith('@fabrikam.test')
            ? 'Federated'
            : 'Unknown';
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ State: 4, UserState: 1, Login: login, NameSpaceType: type }));
      });
      t = await createTestApp(dialect, {
        env: {
          CRM_WEBHOOK_URL: `${crm.url}/hook`,
          CRM_WEBHOOK_SECRET: CRM_SECRET,
          REALM_UPSTREAM_URL: `${realm.url}/getuserrealm.srf`,
        },
      });
    });
    afterAll(async () => {
      await t?.close();
      await crm?.close();
      await realm?.close();
    });

    const changes = [
      { id: SUBSCRIPTION_IDS.k12, subscribed: true },
      { id: SUBSCRIPTION_IDS.technicalUpdates, subscribed: false },
    ];

    /** What the CRM was told of an account, in order: false for its preferences, true for an erasure. */
    const crmCallsOf = (userId: string) =>
      crm.requests
        .map((r) => JSON.parse(r.body) as { userId: string; deleted?: boolean })
        .filter((body) => body.userId === userId)
        .map((body) => body.deleted ?? false);

    describe.skipIf(skip)('hs/subscription', () => {
      it('needs a session', async () => {
        const res = await t.client().post('/api/hs/subscription', { subscriptionChanges: changes });
        expect(res.statusCode).toBe(401);
      });

      it("an administrator acting as someone else saves no one's preferences", async () => {
        const {
          admin,
          as: student,
          client,
        } = await masqueradingClient(t, 'prefs-admin@school.test', 'prefs-masq-student@school.test');
        const res = await client.post('/api/hs/subscription', { subscriptionChanges: changes });
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ status: 'error', msg: messages.forbidden, code: 'forbidden' });
        const rows = await t.db
          .selectFrom('subscriptions')
          .select('user_id')
          .where('user_id', 'in', [admin.id, student.id])
          .execute();
        expect(rows).toEqual([]);
      });

      it("GET answers the signed-in account's stored preferences for the four topics, never another's", async () => {
        const ana = await seedUser(t, { email: 'stored-ana@school.test' });
        const ben = await seedUser(t, { email: 'stored-ben@school.test' });
        const asAna = await signedInClient(t, ana.id);
        const asBen = await signedInClient(t, ben.id);
        const none = await asAna.get('/api/hs/subscription');
        expect(none.statusCode).toBe(200);
        // a topic never saved is not subscribed
        expect(none.json()).toEqual({
          status: 'success',
          payload: {
            subscriptions: Object.values(SUBSCRIPTION_IDS).map((id) => ({ id, subscribed: false })),
          },
        });
        await asAna.post('/api/hs/subscription', {
          subscriptionChanges: [{ id: SUBSCRIPTION_IDS.collegeUniversity, subscribed: true }],
        });
        await asBen.post('/api/hs/subscription', {
          subscriptionChanges: [
            { id: SUBSCRIPTION_IDS.k12, subscribed: true },
            { id: SUBSCRIPTION_IDS.collegeUniversity, subscribed: false },
          ],
        });
        const subscribedOf = async (client: typeof asAna) =>
          storedSubscriptionsPayload
            .parse((await client.get('/api/hs/subscription')).json().payload)
            .subscriptions.filter((s) => s.subscribed)
            .map((s) => s.id);
        expect(await subscribedOf(asAna)).toEqual([SUBSCRIPTION_IDS.collegeUniversity]);
        expect(await subscribedOf(asBen)).toEqual([SUBSCRIPTION_IDS.k12]);
      });

      it('GET refuses as the POST does: no session, or an administrator acting as someone else', async () => {
        const signedOut = t.client();
        const read = await signedOut.get('/api/hs/subscription');
        const write = await signedOut.post('/api/hs/subscription', { subscriptionChanges: changes });
        expect(read.statusCode).toBe(401);
        expect(read.json()).toEqual(write.json());
        const { as: student, client } = await masqueradingClient(
          t,
          'prefs-read-admin@school.test',
          'prefs-read-student@school.test',
        );
        await saveSubscriptions(t.ctx, student, [{ id: SUBSCRIPTION_IDS.k12, subscribed: true }]);
        const masked = await client.get('/api/hs/subscription');
        expect(masked.statusCode).toBe(403);
        expect(masked.json()).toEqual({ status: 'error', msg: messages.forbidden, code: 'forbidden' });
      });

      it('stores the preferences, updates them, and forwards each change to the CRM webhook, signed', async () => {
        const user = await seedUser(t, { email: 'prefs@school.test' });
        const c = await signedInClient(t, user.id);
        const res = await c.post('/api/hs/subscription', { subscriptionChanges: changes });
        expect(res.json()).toEqual({ status: 'success', payload: { saved: 2, forwarded: true } });
        await c.post('/api/hs/subscription', {
          subscriptionChanges: [{ id: SUBSCRIPTION_IDS.k12, subscribed: false }],
        });
        const rows = await t.db
          .selectFrom('subscriptions')
          .select(['subscription_id', 'subscribed'])
          .where('user_id', '=', user.id)
          .orderBy('subscription_id')
          .execute();
        expect(rows).toEqual([
          { subscription_id: SUBSCRIPTION_IDS.k12, subscribed: 0 },
          { subscription_id: SUBSCRIPTION_IDS.technicalUpdates, subscribed: 0 },
        ]);
        const sent = crm.requests.filter((r) => r.body.includes('prefs@school.test'));
        expect(sent).toHaveLength(2);
        expect(JSON.parse(sent[0]?.body ?? '{}').subscriptionChanges).toEqual(changes);
        // HMAC-SHA256 over `<timestamp>.<body>`, the timestamp in seconds of the portal's clock
        for (const request of sent) {
          const timestamp = Number(request.headers[CRM_HEADERS.timestamp]);
          expect(timestamp).toBe(Math.floor(t.clock.now() / 1000));
          expect(request.headers[CRM_HEADERS.signature]).toBe(
            crmSignature(CRM_SECRET, timestamp, request.body),
          );
          expect(request.headers[CRM_HEADERS.signature]).toMatch(/^sha256=[0-9a-f]{64}$/);
          expect(request.headers[CRM_HEADERS.delivery]).toMatch(/^\d+$/);
        }
        expect(sent[0]?.headers[CRM_HEADERS.delivery]).not.toBe(sent[1]?.headers[CRM_HEADERS.delivery]);
      });

      it("stores a student's preferences but never forwards them, nor an address that takes no mail: a child is no marketing contact", async () => {
        const student = async (email: string, set: { is_student?: number; description?: string } = {}) => {
          const user = await seedUser(t, { email });
          if (Object.keys(set).length)
            await t.db.updateTable('users').set(set).where('id', '=', user.id).execute();
          return user;
        };
        const answeredYes = await student('answered-yes@school.test', { is_student: 1 });
        const signedUpAsStudent = await student('signed-up-student@school.test', { description: 'student' });
        const rostered = await student('rostered@school.test');
        await t.db
          .insertInto('user_identities')
          .values({
            user_id: rostered.id,
            provider: 'Clever',
            subject: 'clever-rostered-student',
            email: rostered.email,
            created_at: t.clock.now(),
            claims: JSON.stringify({ emailVerified: false, emailTrusted: false, roles: ['student'] }),
          })
          .execute();
        const noMail = await student('clever-0123456789abcdef0123@federated.invalid');
        // an operator gave this one a class code (a classroom user), and it answered No
        const codeHolder = await student('class-code@school.test', { is_student: 0 });
        await seedServiceProvider(t, 'crm-classroom');
        await createAccessCode(t.ctx, { spId: 'crm-classroom', userId: codeHolder.id });
        const students = [answeredYes, signedUpAsStudent, rostered, noMail, codeHolder];
        for (const user of students) {
          const res = await (
            await signedInClient(t, user.id)
          ).post('/api/hs/subscription', {
            subscriptionChanges: changes,
          });
          expect(res.json(), user.email).toEqual({
            status: 'success',
            payload: { saved: 2, forwarded: false },
          });
          const stored = await t.db
            .selectFrom('subscriptions')
            .select('subscribed')
            .where('user_id', '=', user.id)
            .execute();
          expect(stored).toHaveLength(2);
          expect(
            await t.db.selectFrom('outbox').select('id').where('user_id', '=', user.id).execute(),
          ).toEqual([]);
        }
        for (const user of students) expect(crm.requests.filter((r) => r.body.includes(user.id))).toEqual([]);
      });

      it("deleting an account whose preferences reached the CRM tells it to erase the address; a student's, never sent, stays unsaid", async () => {
        const adult = await seedUser(t, { email: 'erase-me@school.test' });
        const child = await seedUser(t, { email: 'erase-child@school.test' });
        await t.db.updateTable('users').set({ is_student: 1 }).where('id', '=', child.id).execute();
        for (const user of [adult, child])
          await (
            await signedInClient(t, user.id)
          ).post('/api/hs/subscription', { subscriptionChanges: changes });
        for (const { id } of [adult, child]) {
          const user = await t.db
            .selectFrom('users')
            .selectAll()
            .where('id', '=', id)
            .executeTakeFirstOrThrow();
          expect(await deleteUser(t.ctx, user)).toBe(true);
        }
        await t.ctx.outbox.drain();
        const erasures = crm.requests
          .map((r) => JSON.parse(r.body) as { email: string; deleted?: boolean; userId: string })
          .filter((body) => body.deleted);
        expect(erasures).toEqual([
          { email: 'erase-me@school.test', userId: adult.id, deleted: true, changedAt: t.clock.now() },
        ]);
        expect(crm.requests.filter((r) => r.body.includes('erase-child@school.test'))).toEqual([]);
      });

      it("a deletion by a process without CRM_WEBHOOK_URL (the admin CLI run without the server's settings) still has the CRM erase the address: the erasure waits for the server", async () => {
        const user = await seedUser(t, { email: 'erase-from-cli@school.test' });
        const c = await signedInClient(t, user.id);
        expect(
          (await c.post('/api/hs/subscription', { subscriptionChanges: changes })).json().payload.forwarded,
        ).toBe(true);
        const row = await t.db
          .selectFrom('users')
          .selectAll()
          .where('id', '=', user.id)
          .executeTakeFirstOrThrow();
        expect(row.crm_contact_at).toBe(t.clock.now());
        const cli = { ...t.ctx, config: { ...t.ctx.config, crmWebhookUrl: undefined } };
        expect(await deleteUser(cli, row)).toBe(true);
        await t.ctx.outbox.drain();
        expect(crmCallsOf(user.id)).toEqual([false, true]);
      });

      it('an account whose preferences reached the CRM and that then answers it is a student: the CRM is told to erase the address', async () => {
        const user = await seedUser(t, { email: 'said-no-first@school.test' });
        const c = await signedInClient(t, user.id);
        const saved = await c.post('/api/hs/subscription', { subscriptionChanges: changes });
        expect(saved.json().payload.forwarded).toBe(true);
        expect((await c.get('/api/auth/setBasicUserRole/1')).json().payload).toEqual({ isStudent: true });
        await t.ctx.outbox.drain();
        expect(crmCallsOf(user.id)).toEqual([false, true]);
      });

      it('an account that answers it is a student a week after its preferences went, the outbox row pruned, still has the CRM erase the address', async () => {
        const user = await seedUser(t, { email: 'said-no-long-ago@school.test' });
        const c = await signedInClient(t, user.id);
        expect(
          (await c.post('/api/hs/subscription', { subscriptionChanges: changes })).json().payload.forwarded,
        ).toBe(true);
        t.clock.advance(8 * DAY_MS);
        await pruneExpired(t.ctx);
        expect(await t.db.selectFrom('outbox').select('id').where('user_id', '=', user.id).execute()).toEqual(
          [],
        );
        // signed in again, a week on
        const later = await signedInClient(t, user.id);
        expect((await later.get('/api/auth/setBasicUserRole/1')).statusCode).toBe(200);
        await t.ctx.outbox.drain();
        expect(crmCallsOf(user.id)).toEqual([false, true]);
      });

      it('a forward not yet tried when the account answers it is a student is cancelled: the CRM hears only the erasure', async () => {
        const user = await seedUser(t, { email: 'not-yet-sent@school.test' });
        const c = await signedInClient(t, user.id);
        // stored, its forward still waiting in the outbox (the route would try it at once)
        const outboxId = await saveSubscriptions(t.ctx, user, changes);
        expect(outboxId).not.toBeNull();
        expect((await c.get('/api/auth/setBasicUserRole/1')).statusCode).toBe(200);
        await t.ctx.outbox.drain();
        expect(crmCallsOf(user.id)).toEqual([true]);
        const call = await t.db
          .selectFrom('outbox')
          .select(['cancelled_at', 'payload'])
          .where('id', '=', outboxId ?? 0)
          .executeTakeFirstOrThrow();
        expect(call).toEqual({ cancelled_at: t.clock.now(), payload: null });
      });

      it('a forward that failed and waits for its retry when the account answers it is a student is cancelled too: the erasure is the last the CRM hears', async () => {
        const user = await seedUser(t, { email: 'crm-was-down@school.test' });
        const c = await signedInClient(t, user.id);
        crmUp = false;
        const saved = await c.post('/api/hs/subscription', { subscriptionChanges: changes });
        expect(saved.json().payload).toEqual({ saved: 2, forwarded: false });
        crmUp = true;
        expect((await c.get('/api/auth/setBasicUserRole/1')).statusCode).toBe(200);
        // the erasure goes at once; the forward's retry would have come after it
        await t.ctx.outbox.drain();
        t.clock.advance(OUTBOX_RETRY.firstDelayMs);
        await t.ctx.outbox.drain();
        // the try the CRM answered 503, then the erasure, and nothing after it
        expect(crmCallsOf(user.id)).toEqual([false, true]);
      });

      it("a forward given up at the attempt limit is cancelled by a Yes too: an operator's outbox retry after the CRM outage never sends it after the erasure", async () => {
        const user = await seedUser(t, { email: 'crm-long-down@school.test' });
        const c = await signedInClient(t, user.id);
        crmUp = false;
        await c.post('/api/hs/subscription', { subscriptionChanges: changes });
        // its last attempt failed: given up, kept with its payload for an operator
        await t.db
          .updateTable('outbox')
          .set({ attempts: OUTBOX_RETRY.maxAttempts, next_attempt_at: null, failed_at: t.clock.now() })
          .where('user_id', '=', user.id)
          .execute();
        crmUp = true;
        expect((await c.get('/api/auth/setBasicUserRole/1')).statusCode).toBe(200);
        await t.ctx.outbox.drain();
        await retryFailed(t.db, t.clock.now());
        await t.ctx.outbox.drain();
        // the try the CRM answered 503, then the erasure, and nothing after it
        expect(crmCallsOf(user.id)).toEqual([false, true]);
      });

      it('preferences saved in one tab after another answered Yes are never forwarded, though the first tab read the account before', async () => {
        const user = await seedUser(t, { email: 'two-tabs@school.test' });
        const c = await signedInClient(t, user.id);
        // the preferences' request read the account (`user`, as seeded), then the Yes of the other tab landed
        expect((await c.get('/api/auth/setBasicUserRole/1')).statusCode).toBe(200);
        expect(await saveSubscriptions(t.ctx, user, changes)).toBeNull();
        await t.ctx.outbox.drain();
        expect(crm.requests.filter((r) => r.body.includes(user.id))).toEqual([]);
      });

      it('keeps a failed forward in the outbox and delivers it once its backoff is over', async () => {
        const user = await seedUser(t, { email: 'crm-down@school.test' });
        const c = await signedInClient(t, user.id);
        crmUp = false;
        const res = await c.post('/api/hs/subscription', { subscriptionChanges: changes });
        expect(res.json().payload).toEqual({ saved: 2, forwarded: false });
        const pending = await t.db
          .selectFrom('outbox')
          .selectAll()
          .where('user_id', '=', user.id)
          .executeTakeFirstOrThrow();
        expect(pending).toMatchObject({
          kind: 'crm',
          delivered_at: null,
          attempts: 1,
          last_error: 'HTTP 503',
        });
        expect(pending.next_attempt_at).toBe(t.clock.now() + OUTBOX_RETRY.firstDelayMs);
        crmUp = true;
        // not due yet, then due
        expect(await t.ctx.outbox.drain()).toBe(0);
        t.clock.advance(OUTBOX_RETRY.firstDelayMs);
        expect(await t.ctx.outbox.drain()).toBe(1);
        const done = await t.db
          .selectFrom('outbox')
          .selectAll()
          .where('id', '=', pending.id)
          .executeTakeFirstOrThrow();
        expect(done).toMatchObject({ attempts: 2, payload: null, next_attempt_at: null, last_error: null });
        expect(done.delivered_at).toBe(t.clock.now());
        const last = crm.requests.at(-1);
        expect(last?.headers[CRM_HEADERS.delivery]).toBe(String(pending.id));
        // signed at the retry, so the CRM's replay window holds for late deliveries too
        expect(last?.headers[CRM_HEADERS.timestamp]).toBe(String(Math.floor(t.clock.now() / 1000)));
      });

      it('refuses unknown subscription ids, a topic named twice and malformed bodies', async () => {
        const user = await seedUser(t, { email: 'prefs-bad@school.test' });
        const c = await signedInClient(t, user.id);
        for (const body of [
          { subscriptionChanges: [{ id: 1, subscribed: true }] },
          { subscriptionChanges: [] },
          { subscriptionChanges: 'all' },
          {},
          // one topic twice, contradicting itself
          {
            subscriptionChanges: [
              { id: SUBSCRIPTION_IDS.k12, subscribed: true },
              { id: SUBSCRIPTION_IDS.k12, subscribed: false },
            ],
          },
        ]) {
          const res = await c.post('/api/hs/subscription', body);
          expect(res.statusCode).toBe(400);
          expect(res.json().status).toBe('error');
        }
      });
    });

    describe.skipIf(skip)('v2/auth/microsoft-user-realm', () => {
      const ask = (email: string) => t.client().post('/api/v2/auth/microsoft-user-realm', { email });

      it('answers Managed, Federated or Unknown from the upstream', async () => {
        realmMode = 'ok';
        expect(realmPayload.parse((await ask('Teacher@Contoso.test')).json().payload)).toEqual({
          accountType: 'Managed',
          domain: 'contoso.test',
        });
        expect((await ask('someone@fabrikam.test')).json().payload.accountType).toBe('Federated');
        expect((await ask('someone@gmail.test')).json().payload.accountType).toBe('Unknown');
        expect(realm.requests.at(-1)?.url).toBe('/getuserrealm.srf?login=someone%40gmail.test&json=1');
      });

      it('uses the per-domain override table first', async () => {
        await t.db
          .insertInto('realm_overrides')
          .values({ domain: 'contoso.test', account_type: 'Federated' })
          .execute();
        const before = realm.requests.length;
        expect((await ask('x@contoso.test')).json().payload.accountType).toBe('Federated');
        expect(realm.requests.length).toBe(before);
      });

      it('answers Unknown (the work/school provider) when the upstream is down or broken', async () => {
        for (const mode of ['down', 'garbage'] as const) {
          realmMode = mode;
          const res = await ask('x@elsewhere.test');
          expect(res.statusCode).toBe(200);
          expect(res.json()).toEqual({
            status: 'success',
            payload: { accountType: 'Unknown', domain: 'elsewhere.test' },
          });
        }
        realmMode = 'ok';
      });

      it('refuses an invalid email with the work/school message', async () => {
        const res = await ask('nope');
        expect(res.statusCode).toBe(400);
        expect(res.json().msg).toBe(messages.workEmailInvalid);
      });
    });
  },
);
