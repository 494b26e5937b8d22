import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DestinationStream } from 'pino';
import { realmPayload } from '@frontdoor/contract';
import { startFakeServer, type FakeServer } from '../../test/fake-http.ts';
import { DIALECTS, createTestApp, type TestApp } from '../../test/harness.ts';
import { createLogger } from './logger.ts';

const ask = (t: TestApp, email: string) => t.client().post('/api/v2/auth/microsoft-user-realm', { email });

describe.each(DIALECTS)('realm discovery on $dialect', ({ dialect, skip }) => {
  describe.skipIf(skip)('an upstream that never answers, or cannot be reached', () => {
    let t: TestApp;
    let hanging: FakeServer;
    const held: ServerResponse[] = [];
    const lines: string[] = [];
    const destination: DestinationStream = { write: (line: string) => void lines.push(line) };
    beforeAll(async () => {
      hanging = await startFakeServer((_req, _body, res) => void held.push(res));
      t = await createTestApp(dialect, {
        env: { REALM_UPSTREAM_URL: `${hanging.url}/getuserrealm.srf`, REALM_TIMEOUT_MS: '300' },
        logger: createLogger({ level: 'warn', destination }),
      });
    });
    afterAll(async () => {
      for (const res of held) res.end();
      await t?.close();
      await hanging?.close();
    });

    it('answers Unknown once REALM_TIMEOUT_MS has passed, and logs the domain, never the email', async () => {
      const started = performance.now();
      const res = await ask(t, 'Slow.Teacher@Contoso.test');
      const took = performance.now() - started;
      expect(res.statusCode).toBe(200);
      expect(realmPayload.parse(res.json().payload)).toEqual({
        accountType: 'Unknown',
        domain: 'contoso.test',
      });
      expect(took).toBeGreaterThanOrEqual(250);
      expect(took).toBeLessThan(2500);
      expect(hanging.requests.at(-1)?.url).toBe('/getuserrealm.srf?login=slow.teacher%40contoso.test&json=1');
      const entry = lines.map((l) => JSON.parse(l) as Record<string, unknown>).at(-1);
      expect(entry).toMatchObject({
        domain: 'contoso.test',
        reason: 'no answer within 300 ms',
        msg: expect.stringMatching(/^realm upstream failed/),
      });
      expect(lines.join('')).not.toMatch(/slow\.teacher/i);
    });

    it('answers Unknown when the upstream cannot be reached', async () => {
      await hanging.close();
      const res = await ask(t, 'kid@district.test');
      expect(res.json()).toEqual({
        status: 'success',
        payload: { accountType: 'Unknown', domain: 'district.test' },
      });
      expect(lines.at(-1)).toContain('"domain":"district.test"');
    });
  });

  describe.skipIf(skip)(
    'the dev identity provider as the default upstream (development, no REALM_UPSTREAM_URL)',
    () => {
      let t: TestApp;
      beforeAll(async () => {
        t = await createTestApp(dialect, {
          env: { DEV_REALMS: 'managed.example=Managed, personal.example=Federated, school.test=Managed' },
        });
      });
      afterAll(() => t?.close());

      it('answers each outcome of the work/school modal from DEV_REALMS, Unknown for any other domain', async () => {
        const typeOf = async (email: string) => (await ask(t, email)).json().payload.accountType;
        expect(await typeOf('wendy@managed.example')).toBe('Managed');
        expect(await typeOf('Pat@Personal.Example')).toBe('Federated');
        expect(await typeOf('teacher@school.test')).toBe('Managed');
        expect(await typeOf('someone@elsewhere.example')).toBe('Unknown');
        expect(await typeOf('someone@sub.managed.example')).toBe('Unknown');
      });

      it('is shaped like getuserrealm.srf', async () => {
        const res = await t.client().get('/dev/idp/realm?login=wendy%40managed.example&json=1');
        expect(res.statusCode).toBe(200);
        expect(res.headers['cache-control']).toBe('no-store');
        expect(res.json()).toEqual({
          State: 4,
          UserState: 1,
          Login: 'wendy@managed.example',
          NameSpaceType: 'Managed',
          DomainName: 'managed.example',
        });
        expect((await t.client().get('/dev/idp/realm?login=nobody&json=1')).json()).toMatchObject({
          NameSpaceType: 'Unknown',
        });
      });
    },
  );

  describe.skipIf(skip)('without the dev identity provider (as in production)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(dialect, { env: { DEV_IDP: '0', REALM_UPSTREAM_URL: 'http://127.0.0.1:9/x' } });
    });
    afterAll(() => t?.close());

    it('serves no realm route', async () => {
      const res = await t.client().get('/dev/idp/realm?login=wendy%40managed.example&json=1');
      expect(res.statusCode).toBe(404);
    });
  });
});
