import { generateKeyPairSync, sign, verify } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SignJWT,
  createLocalJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  jwtVerify,
  type JSONWebKeySet,
} from 'jose';
import {
  CSRF_HEADER,
  PRODUCT_JWKS_MAX_AGE_SECONDS,
  PRODUCT_JWKS_PATH,
  PRODUCT_KEY_ROTATION_MS,
  PRODUCT_TOKEN_AUDIENCE,
  PRODUCT_TOKEN_TTL_MS,
  apiPaths,
  gatewaySessionResponse,
  messages,
  sessionSchema,
} from '@frontdoor/contract';
import {
  DIALECTS,
  basicAuth,
  createTestApp,
  seedServiceProvider,
  seedUser,
  signedInClient,
  type ApiClient,
  type TestApp,
} from '../../test/harness.ts';
import { parseAdminArgs, runAdminCommand } from '../admin/commands.ts';
import { listAudit } from './audit.ts';
import {
  PRODUCT_KEY_GRACE_MS,
  PRODUCT_KEY_PUBLISH_AHEAD_MS,
  SIGNING_KEY_CACHE_MS,
  derToJose,
} from './product-keys.ts';
import { createSession } from './sessions.ts';

type Credentials = { clientId: string; clientSecret: string };

async function publishedKeys(t: TestApp): Promise<JSONWebKeySet> {
  const res = await t.client().get(PRODUCT_JWKS_PATH);
  expect(res.statusCode).toBe(200);
  return res.json();
}

async function tokenOf(c: ApiClient): Promise<string> {
  const session = sessionSchema.parse((await c.get(`/api/${apiPaths.sig}`)).json());
  if (!session.loggedin) throw new Error('expected a signed-in session');
  return session.payload.token;
}

/** What a product does: the published keys, ES256 only, the portal as issuer, products as audience. */
async function verifyAsProduct(t: TestApp, token: string, jwks?: JSONWebKeySet) {
  return jwtVerify(token, createLocalJWKSet(jwks ?? (await publishedKeys(t))), {
    algorithms: ['ES256'],
    issuer: t.ctx.config.publicUrl,
    audience: PRODUCT_TOKEN_AUDIENCE,
    currentDate: new Date(t.clock.now()),
  });
}

const sessionCheck = (t: TestApp, sid: string, auth?: string) =>
  t.app.inject({
    method: 'GET',
    url: `/api/${apiPaths.gatewaySession(sid)}`,
    headers: auth ? { authorization: auth } : {},
  });

const rotate = (t: TestApp) => runAdminCommand(t.ctx, ['keys', 'rotate'], parseAdminArgs([]).values);

describe.each(DIALECTS)('product token on $dialect', ({ dialect, skip }) => {
  let t: TestApp;
  let sp: Credentials;
  beforeAll(async () => {
    if (skip) return;
    t = await createTestApp(dialect);
    sp = await seedServiceProvider(t, 'mathworld');
  });
  afterAll(async () => t?.close());

  describe.skipIf(skip)('signature and claims', () => {
    it('verifies with the published JWKS (ES256, kid), carries iss, aud, sub, sid, who the user is, iat, exp, jti and lives minutes', async () => {
      const user = await seedUser(t, {
        email: 'token@school.test',
        first: 'Tia',
        last: 'Oken',
        roles: { teacher: [1, 2] },
      });
      const c = await signedInClient(t, user.id);
      const res = await c.get(PRODUCT_JWKS_PATH);
      expect(res.headers['cache-control']).toBe(`public, max-age=${PRODUCT_JWKS_MAX_AGE_SECONDS}`);
      // kept by shared caches: a browser's CSRF token on it would reach every browser behind them
      const fresh = await t.app.inject({ url: PRODUCT_JWKS_PATH });
      expect(fresh.headers['set-cookie']).toBeUndefined();
      expect(fresh.headers[CSRF_HEADER]).toBeUndefined();
      const jwks: JSONWebKeySet = res.json();
      expect(jwks.keys).toHaveLength(1);
      expect(Object.keys(jwks.keys[0] ?? {}).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x', 'y']);
      expect(jwks.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });

      const token = await tokenOf(c);
      const { payload, protectedHeader } = await verifyAsProduct(t, token, jwks);
      expect(protectedHeader).toMatchObject({ alg: 'ES256', kid: jwks.keys[0]?.kid });
      const nowSeconds = Math.floor(t.clock.now() / 1000);
      expect(payload).toMatchObject({
        iss: 'http://localhost:8080',
        aud: PRODUCT_TOKEN_AUDIENCE,
        sub: user.id,
        sid: expect.stringMatching(/^[0-9a-f]{64}$/),
        // signed, unlike the signature auth/sig hands the browser: what a product's server may trust
        email: 'token@school.test',
        given_name: 'Tia',
        family_name: 'Oken',
        roles: { teacher: [1, 2] },
        iat: nowSeconds,
        jti: expect.any(String),
      });
      expect(payload.masq).toBeUndefined();
      expect(payload.exp).toBe(nowSeconds + PRODUCT_TOKEN_TTL_MS / 1000);
      expect(decodeJwt(await tokenOf(c)).jti).not.toBe(payload.jti);
    });

    it('never outlives its session', async () => {
      const user = await seedUser(t, { email: 'short-session@school.test' });
      const expiresAt = t.clock.now() + 3 * 60 * 1000;
      const c = t
        .client()
        .signInWith(await createSession(t.db, user.id, { now: t.clock.now(), ttlMs: 3 * 60 * 1000 }));
      const { payload } = await verifyAsProduct(t, await tokenOf(c));
      expect(payload.exp).toBe(Math.floor(expiresAt / 1000));
    });

    it('never outlives its session’s idle end: a lab’s SESSION_IDLE_MINUTES shorter than the token’s life', async () => {
      const lab = await createTestApp(dialect, { env: { SESSION_IDLE_MINUTES: '4' } });
      try {
        const user = await seedUser(lab, { email: 'lab-idle@school.test' });
        const c = await signedInClient(lab, user.id);
        const signedInAt = lab.clock.now();
        const first = await verifyAsProduct(lab, await tokenOf(c));
        expect(first.payload.exp).toBe(Math.floor((signedInAt + 4 * 60_000) / 1000));
        // half a minute later the use is not written again (at most once a minute): the idle end stays
        lab.clock.advance(30_000);
        const second = await verifyAsProduct(lab, await tokenOf(c));
        expect(second.payload.exp).toBe(first.payload.exp);
        // a use written later moves it on
        lab.clock.advance(60_000);
        const third = await verifyAsProduct(lab, await tokenOf(c));
        expect(third.payload.exp).toBe(Math.floor((lab.clock.now() + 4 * 60_000) / 1000));
      } finally {
        await lab.close();
      }
    });

    it('refuses a tampered token, and an HS256 token signed with SECRET (anyone holding it could mint one)', async () => {
      const user = await seedUser(t, { email: 'forged@school.test' });
      const victim = await seedUser(t, { email: 'victim@school.test' });
      const token = await tokenOf(await signedInClient(t, user.id));
      const jwks = await publishedKeys(t);
      const [header = '', body = '', signature = ''] = token.split('.');

      const flipped = `${signature.slice(0, 20)}${signature[20] === 'A' ? 'B' : 'A'}${signature.slice(21)}`;
      await expect(verifyAsProduct(t, `${header}.${body}.${flipped}`, jwks)).rejects.toThrow(/signature/);
      const claims = { ...decodeJwt(token), sub: victim.id };
      const swapped = Buffer.from(JSON.stringify(claims)).toString('base64url');
      await expect(verifyAsProduct(t, `${header}.${swapped}.${signature}`, jwks)).rejects.toThrow(
        /signature/,
      );

      const forged = await new SignJWT({ ...claims })
        .setProtectedHeader({ alg: 'HS256', kid: decodeProtectedHeader(token).kid })
        .sign(new TextEncoder().encode(t.ctx.config.secret));
      await expect(verifyAsProduct(t, forged, jwks)).rejects.toThrow();
      // even a verifier that forgot to pin the algorithm finds no key for it
      await expect(jwtVerify(forged, createLocalJWKSet(jwks))).rejects.toThrow();
    });
  });

  describe.skipIf(skip)('gateway/session/:sid', () => {
    it('says whether the token’s session is still signed in: not after logout, expiry, or for an unknown sid', async () => {
      const user = await seedUser(t, { email: 'session-check@school.test' });
      const c = await signedInClient(t, user.id);
      const sid = String(decodeJwt(await tokenOf(c)).sid);
      const auth = basicAuth(sp.clientId, sp.clientSecret);
      const active = async (id: string) => {
        const res = await sessionCheck(t, id, auth);
        expect(res.statusCode).toBe(200);
        expect(res.headers['cache-control']).toBe('no-store');
        const body = gatewaySessionResponse.parse(res.json());
        return body.status === 'success' && body.payload.active;
      };
      expect(await active(sid)).toBe(true);
      expect((await c.get(`/api/${apiPaths.cognitoLogout}`)).statusCode).toBe(200);
      expect(await active(sid)).toBe(false);
      expect(await active('0'.repeat(64))).toBe(false);

      const brief = t
        .client()
        .signInWith(await createSession(t.db, user.id, { now: t.clock.now(), ttlMs: 60 * 1000 }));
      const briefSid = String(decodeJwt(await tokenOf(brief)).sid);
      expect(await active(briefSid)).toBe(true);
      t.clock.advance(60 * 1000);
      expect(await active(briefSid)).toBe(false);
    });

    it('needs the provider’s client credentials (401 otherwise) and refuses what is no session id', async () => {
      for (const auth of [undefined, basicAuth(sp.clientId, 'wrong'), 'Bearer x']) {
        const res = await sessionCheck(t, 'a'.repeat(64), auth);
        expect(res.statusCode).toBe(401);
        expect(res.headers['www-authenticate']).toBe('Basic realm="frontdoor-gateway"');
        expect(res.json()).toEqual({
          status: 'error',
          msg: messages.serviceProviderAuthFailed,
          code: 'serviceProviderAuthFailed',
        });
      }
      for (const sid of ['not-a-session', 'A'.repeat(64), 'a'.repeat(65)]) {
        const res = await sessionCheck(t, sid, basicAuth(sp.clientId, sp.clientSecret));
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ status: 'error', msg: messages.badRequest, code: 'badRequest' });
      }
    });

    it('counts against the provider’s calls a minute (LIMIT_SP_CALLS_PER_MINUTE)', async () => {
      const limited = await createTestApp(dialect, {
        env: { LIMIT_SP_CALLS_PER_MINUTE: '2', RATE_LIMIT_MULTIPLIER: '1' },
      });
      try {
        const creds = await seedServiceProvider(limited, 'limited');
        const statuses: number[] = [];
        for (let i = 0; i < 3; i++)
          statuses.push(
            (await sessionCheck(limited, 'a'.repeat(64), basicAuth(creds.clientId, creds.clientSecret)))
              .statusCode,
          );
        expect(statuses).toEqual([200, 200, 429]);
      } finally {
        await limited.close();
      }
    });
  });

  describe.skipIf(skip)('key rotation', () => {
    it('after `keys rotate` the new key is published first and signs only once products may have fetched it; earlier tokens still verify; the old key goes once its tokens have expired', async () => {
      const user = await seedUser(t, { email: 'rotation@school.test' });
      const c = await signedInClient(t, user.id);
      const before = await tokenOf(c);
      const oldKid = decodeProtectedHeader(before).kid;

      const rotated = await rotate(t);
      expect(rotated.kid).not.toBe(oldKid);
      expect(rotated.published).toEqual([rotated.kid, oldKid]);
      expect(rotated.signsFrom).toBe(new Date(t.clock.now() + PRODUCT_KEY_PUBLISH_AHEAD_MS).toISOString());
      const jwks = await publishedKeys(t);
      expect(jwks.keys.map((k) => k.kid)).toEqual([rotated.kid, oldKid]);
      expect((await listAudit(t.ctx, { limit: 1, event: 'product-key.rotated' }))[0]?.detail).toEqual({
        kid: rotated.kid,
        replaced: oldKid,
        by: 'admin',
      });

      // a product fetched the keys just before the rotation and keeps them as long as the JWKS's
      // Cache-Control allows: every token it meets meanwhile is signed with a key it holds
      const cachedBefore = { keys: jwks.keys.filter((k) => k.kid === oldKid) };
      expect(PRODUCT_KEY_PUBLISH_AHEAD_MS).toBeGreaterThan(PRODUCT_JWKS_MAX_AGE_SECONDS * 1000);
      t.clock.advance(PRODUCT_KEY_PUBLISH_AHEAD_MS - 1000);
      const stillOld = await tokenOf(c);
      expect(decodeProtectedHeader(stillOld).kid).toBe(oldKid);
      await verifyAsProduct(t, stillOld, cachedBefore);

      // then the new key signs (this instance reads the keys again within SIGNING_KEY_CACHE_MS)
      t.clock.advance(SIGNING_KEY_CACHE_MS);
      const after = await tokenOf(c);
      expect(decodeProtectedHeader(after).kid).toBe(rotated.kid);
      await verifyAsProduct(t, after);
      await verifyAsProduct(t, stillOld);

      // the old key stays published until its last tokens have expired
      const switchedAt = Date.parse(rotated.signsFrom as string);
      t.clock.advance(switchedAt + PRODUCT_KEY_GRACE_MS - 1000 - t.clock.now());
      expect((await publishedKeys(t)).keys).toHaveLength(2);
      t.clock.advance(1000);
      expect((await publishedKeys(t)).keys.map((k) => k.kid)).toEqual([rotated.kid]);
      const rows = await t.db
        .selectFrom('identity_keys')
        .select('material')
        .where('name', 'like', 'product-key:%')
        .execute();
      expect(rows.map((r) => (JSON.parse(r.material) as { kid: string }).kid)).toEqual([rotated.kid]);
    });

    it('replaces a key older than PRODUCT_KEY_ROTATION_MS on its next use, publishing the new one before it signs', async () => {
      const [current] = (await publishedKeys(t)).keys;
      t.clock.advance(PRODUCT_KEY_ROTATION_MS);
      const user = await seedUser(t, { email: 'monthly@school.test' });
      const c = await signedInClient(t, user.id);
      const token = await tokenOf(c);
      const jwks = await publishedKeys(t);
      expect(jwks.keys).toHaveLength(2);
      expect(jwks.keys[1]?.kid).toBe(current?.kid);
      expect(decodeProtectedHeader(token).kid).toBe(current?.kid);
      await verifyAsProduct(t, token, jwks);
      expect((await listAudit(t.ctx, { limit: 1, event: 'product-key.rotated' }))[0]?.detail).toMatchObject({
        replaced: current?.kid,
        by: 'schedule',
      });
      t.clock.advance(PRODUCT_KEY_PUBLISH_AHEAD_MS + SIGNING_KEY_CACHE_MS);
      expect(decodeProtectedHeader(await tokenOf(c)).kid).toBe(jwks.keys[0]?.kid);
    });
  });
  describe.skipIf(skip)('the key an instance signs with', () => {
    it('is the one it read at most SIGNING_KEY_CACHE_MS ago: a key another instance adds signs after that, and the replaced key verifies its last tokens until they expire', async () => {
      const c = await signedInClient(t, (await seedUser(t, { email: 'cached-key@school.test' })).id);
      const oldKid = decodeProtectedHeader(await tokenOf(c)).kid;
      // another instance, or the admin CLI, adds the next generation
      const names = await t.db
        .selectFrom('identity_keys')
        .select('name')
        .where('name', 'like', 'product-key:%')
        .execute();
      const generation = Math.max(...names.map((row) => Number(row.name.split(':')[1]))) + 1;
      const { privateKey } = await generateKeyPair('ES256', { extractable: true });
      const jwk = {
        ...(await exportJWK(privateKey)),
        kid: `elsewhere-${generation}`,
        alg: 'ES256',
        use: 'sig',
      };
      await t.db
        .insertInto('identity_keys')
        .values({
          name: `product-key:${generation}`,
          material: JSON.stringify(jwk),
          // published long enough to sign as soon as an instance reads it
          created_at: t.clock.now() - PRODUCT_KEY_PUBLISH_AHEAD_MS,
        })
        .execute();

      t.clock.advance(SIGNING_KEY_CACHE_MS - 1000);
      const last = await tokenOf(c);
      expect(decodeProtectedHeader(last).kid).toBe(oldKid);
      t.clock.advance(1000);
      expect(decodeProtectedHeader(await tokenOf(c)).kid).toBe(jwk.kid);
      t.clock.advance(Number(decodeJwt(last).exp) * 1000 - t.clock.now() - 1000);
      await verifyAsProduct(t, last);
    });
  });
});

describe('derToJose', () => {
  it('turns DER signatures into the r‖s that ES256 verifies, whatever the lengths of r and s', () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const input = Buffer.from('header.claims');
    const lengths = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      const der = sign('sha256', input, privateKey);
      lengths.add(der.length);
      const jose = derToJose(der);
      expect(jose).toHaveLength(64);
      expect(verify('sha256', input, { key: publicKey, dsaEncoding: 'ieee-p1363' }, jose)).toBe(true);
    }
    // r and s with a leading zero byte (top bit set) and without one were both met
    expect(lengths.size).toBeGreaterThan(2);
  });
});
