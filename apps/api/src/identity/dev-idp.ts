import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Provider, { type Account, type KoaContextWithOIDC } from 'oidc-provider';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import {
  PROVIDER_DISPLAY_NAMES,
  isValidEmail,
  normalizeEmail,
  type MicrosoftAccountType,
  type UpstreamProvider,
} from '@frontdoor/contract';
import type { Db } from '../db/index.ts';
import { kyselyAdapter } from './adapter.ts';
import { randomToken } from '../services/crypto.ts';
import {
  DEV_REALM_PATH,
  MICROSOFT_PERSONAL_TENANT,
  isSchoolRosterProvider,
  type UpstreamSettings,
} from './settings.ts';
import { upstreamCallbackPath } from './federation.ts';
import { html } from '../services/html.ts';
import { page, refusePage } from './pages.ts';
import { commonSettings, forgetLoginOnceAuthorized, freshLoginPolicy } from './oidc-common.ts';

/**
 * The bundled development identity provider (non-production only): one oidc-provider per
 * upstream at /dev/idp/<provider>, with a page where a person types the identity to return,
 * answering in that provider's shape (Entra tid/oid, Apple's string booleans and form_post
 * `user`, Clever and ClassLink user-info APIs with a role and a school). So every sign-in button
 * works offline, and so do ClassLink's LaunchPad launch and Microsoft realm discovery.
 */

/** The roles the school-roster providers' dev pages offer. */
const DEV_ROSTER_ROLES = ['student', 'teacher'] as const;
export type DevRosterRole = (typeof DEV_ROSTER_ROLES)[number];

/** What the person typed on the dev sign-in page. */
export interface DevIdentity {
  email: string;
  first: string;
  last: string;
  /** Clever and ClassLink: the role the roster gives (teacher for identities saved without one). */
  role?: DevRosterRole;
}

const capitalized = (word: string) => `${word.charAt(0).toUpperCase()}${word.slice(1)}`;

const hash = (...parts: string[]) => createHash('sha256').update(parts.join('\u0000')).digest('hex');
/** A GUID-shaped id derived from its inputs, stable across restarts. */
const guid = (...parts: string[]) => {
  const h = hash(...parts);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
};
const digits = (h: string, n: number) => BigInt(`0x${h}`).toString().slice(0, n);

/**
 * The account id of a typed identity: the same email always returns the same person; without one
 * (a roster's pupil, most Clever and ClassLink students), the same name does.
 */
export const devAccountId = (provider: UpstreamProvider, email: string, name = ''): string =>
  (email ? hash(provider, normalizeEmail(email)) : hash(provider, 'no email', name.toLowerCase())).slice(
    0,
    32,
  );

/** Clever and ClassLink give many pupils no email: their dev pages take an identity without one. */
const takesNoEmail = (provider: UpstreamProvider, who: DevIdentity): boolean =>
  isSchoolRosterProvider(provider) && !who.email && Boolean(who.first || who.last);

/** Claims as the real provider shapes them (ID token / userinfo). */
export function devClaims(
  provider: UpstreamProvider,
  accountId: string,
  who: DevIdentity,
): Record<string, unknown> {
  const name = `${who.first} ${who.last}`.trim();
  const domain = who.email.split('@')[1] ?? '';
  switch (provider) {
    case 'Google':
      return {
        sub: digits(hash('google', accountId), 21),
        email: who.email,
        email_verified: true,
        name,
        given_name: who.first,
        family_name: who.last,
        ...(domain && domain !== 'gmail.com' ? { hd: domain } : {}),
      };
    case 'Microsoft':
    case 'MicrosoftPersonal':
      return {
        sub: hash('pairwise', accountId).slice(0, 43),
        tid: provider === 'MicrosoftPersonal' ? MICROSOFT_PERSONAL_TENANT : guid('tenant', domain),
        oid: guid('oid', accountId),
        email: who.email,
        preferred_username: who.email,
        name,
        given_name: who.first,
        family_name: who.last,
      };
    case 'SignInWithApple':
      return {
        sub: `000${digits(hash('apple', accountId), 3)}.${hash('apple-sub', accountId).slice(0, 32)}.${digits(hash('apple-n', accountId), 4)}`,
        email: who.email,
        email_verified: 'true',
        is_private_email: 'false',
      };
    // one district (tenant) and one school per email domain
    case 'Clever':
      return {
        sub: hash('clever', accountId).slice(0, 24),
        user_type: who.role ?? 'teacher',
        district: hash('clever-district', domain).slice(0, 24),
        school: hash('clever-school', domain).slice(0, 24),
        ...(who.email ? { email: who.email } : {}),
        given_name: who.first,
        family_name: who.last,
      };
    case 'ClassLink':
      return {
        sub: digits(hash('classlink', accountId), 8),
        TenantId: Number(digits(hash('classlink-tenant', domain), 4)),
        BuildingId: Number(digits(hash('classlink-building', domain), 5)),
        SourcedId: guid('classlink-sourced-id', accountId),
        Role: capitalized(who.role ?? 'teacher'),
        ...(who.email ? { email: who.email } : {}),
        given_name: who.first,
        family_name: who.last,
      };
  }
}

const DEV_COOKIE_OPTIONS = { httpOnly: true, sameSite: 'lax', signed: true } as const;

const accountType = (provider: UpstreamProvider) => `devidp:${provider}:Account`;

async function saveAccount(
  db: Db,
  provider: UpstreamProvider,
  accountId: string,
  who: DevIdentity,
): Promise<void> {
  const payload = JSON.stringify(who);
  await db
    .insertInto('oidc_payloads')
    .values({
      id: accountId,
      type: accountType(provider),
      payload,
      grant_id: null,
      user_code: null,
      uid: null,
      expires_at: null,
      consumed_at: null,
    })
    .onConflict((oc) => oc.columns(['id', 'type']).doUpdateSet({ payload }))
    .execute();
}

async function loadAccount(
  db: Db,
  provider: UpstreamProvider,
  accountId: string,
): Promise<DevIdentity | undefined> {
  const row = await db
    .selectFrom('oidc_payloads')
    .select('payload')
    .where('type', '=', accountType(provider))
    .where('id', '=', accountId)
    .executeTakeFirst();
  return row ? (JSON.parse(row.payload) as DevIdentity) : undefined;
}

let signingKey: Promise<JWK> | undefined;
/** One RS256 key per process for every dev provider (development only, never the portal's key). */
const devSigningKey = () =>
  (signingKey ??= generateKeyPair('RS256', { extractable: true }).then(async ({ privateKey }) => ({
    ...(await exportJWK(privateKey)),
    kid: 'dev-idp',
    alg: 'RS256',
    use: 'sig',
  })));

export interface DevIdpOptions {
  db: Db;
  /** ctx.now: the clock the dev provider's stored rows expire by. */
  now: () => number;
  publicUrl: string;
  settings: UpstreamSettings;
  cookieKeys: string[];
}

/** The roster providers speak plain OAuth 2.0: their tokens are for the user-info API. */
const isRosterApi = (s: UpstreamSettings) => s.protocol === 'oauth2';

export async function createDevIdentityProvider({
  db,
  now,
  publicUrl,
  settings,
  cookieKeys,
}: DevIdpOptions): Promise<Provider> {
  const { provider } = settings;
  const issuer = settings.issuer;
  const apiResource = `${issuer}/api`;
  const idp = new Provider(issuer, {
    ...commonSettings,
    adapter: kyselyAdapter(db, now, `devidp:${provider}:`),
    clients: [
      {
        client_id: settings.clientId,
        client_secret: settings.clientSecret,
        redirect_uris: [`${publicUrl}${upstreamCallbackPath(provider)}`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: settings.clientAuth,
      },
    ],
    jwks: { keys: [await devSigningKey()] },
    cookies: {
      keys: cookieKeys,
      // own names: on the portal's host, oidc-provider's default `_session` would overwrite the
      // authorization server's, and a second sign-in in one browser would fail at its resume
      names: {
        session: `_devidp_${provider}_session`,
        interaction: `_devidp_${provider}_interaction`,
        resume: `_devidp_${provider}_resume`,
      },
      long: DEV_COOKIE_OPTIONS,
      short: DEV_COOKIE_OPTIONS,
    },
    claims: {
      openid: ['sub', 'tid', 'oid', 'user_type', 'district', 'TenantId'],
      email: ['email', 'email_verified', 'is_private_email'],
      profile: ['name', 'given_name', 'family_name', 'preferred_username', 'hd'],
      name: [],
    },
    // like the real providers, the ID token carries the profile claims itself
    conformIdTokenClaims: false,
    responseTypes: ['code'],
    routes: {
      authorization: '/oauth2/authorize',
      token: '/oauth2/token',
      userinfo: '/userinfo',
      jwks: '/jwks',
    },
    interactions: {
      url: (_ctx, interaction) => `/dev/idp/${provider}/interaction/${interaction.uid}`,
      policy: freshLoginPolicy(),
    },
    features: {
      ...commonSettings.features,
      resourceIndicators: {
        enabled: true,
        defaultResource: () => (isRosterApi(settings) ? apiResource : undefined),
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: KoaContextWithOIDC, resource: string) => {
          if (resource !== apiResource) throw new Error('unknown resource');
          return { scope: 'profile', accessTokenFormat: 'opaque', audience: apiResource };
        },
      },
    },
    loadExistingGrant: async (ctx) => {
      const grant = await commonSettings.loadExistingGrant(ctx);
      if (grant && isRosterApi(settings)) {
        grant.addResourceScope(apiResource, 'profile');
        await grant.save();
      }
      return grant;
    },
    findAccount: async (_ctx, sub): Promise<Account | undefined> => {
      const who = await loadAccount(db, provider, sub);
      if (!who) return undefined;
      const claims = devClaims(provider, sub, who);
      return { accountId: sub, claims: async () => ({ ...claims, sub: String(claims.sub) }) };
    },
  });
  forgetLoginOnceAuthorized(idp, DEV_COOKIE_OPTIONS);
  // inside the forgetting (registered after it), so it still sees the session's account
  if (provider === 'SignInWithApple') idp.use(appleUserField(db));
  return idp;
}

/** Apple form-posts a `user` JSON (name, email) beside the code on the first authorization. */
function appleUserField(db: Db) {
  return async (ctx: KoaContextWithOIDC, next: () => Promise<void>) => {
    await next();
    const accountId = ctx.oidc?.session?.accountId;
    if (
      ctx.oidc?.route !== 'resume' ||
      typeof ctx.body !== 'string' ||
      !accountId ||
      !ctx.body.includes('name="code"')
    )
      return;
    const who = await loadAccount(db, 'SignInWithApple', accountId);
    if (!who) return;
    const user = JSON.stringify({ name: { firstName: who.first, lastName: who.last }, email: who.email });
    const input = html`<input type="hidden" name="user" value="${user}" />`.value;
    ctx.body = ctx.body.replace('<noscript>', `${input}\n    <noscript>`);
  };
}

type DevRequest = FastifyRequest<{ Params: { uid: string } }>;

/** The Role choice of a school-roster provider's page. */
function roleField(provider: UpstreamProvider, chosen: DevRosterRole | undefined) {
  if (!isSchoolRosterProvider(provider)) return '';
  const options = DEV_ROSTER_ROLES.map(
    (role) =>
      html`<option value="${role}" ${role === (chosen ?? 'teacher') ? html`selected` : ''}>
        ${capitalized(role)}
      </option>`,
  );
  return html`<label for="role">Role</label>
    <select id="role" name="role">
      ${options}
    </select>`;
}

function signInPage(
  provider: UpstreamProvider,
  action: string,
  values: Partial<DevIdentity>,
  error?: string,
): string {
  const title = `${PROVIDER_DISPLAY_NAMES[provider]} (development sign-in)`;
  return page(
    title,
    html`<h1>${title}</h1>
      <p class="note">
        This development identity provider stands in for ${PROVIDER_DISPLAY_NAMES[provider]}. Type the
        identity it should return.${
          isSchoolRosterProvider(provider)
            ? ' Leave the email empty for a pupil without one, as most are: the name then picks the person.'
            : ''
        }
      </p>
      ${error ? html`<p class="error" role="alert" id="form-error">${error}</p>` : ''}
      <form method="post" action="${action}" novalidate>
        <label for="email">Email</label>
        <input
          id="email"
          name="email"
          type="email"
          autocomplete="email"
          ${isSchoolRosterProvider(provider) ? '' : html`required`}
          value="${values.email ?? ''}"
          ${error ? html`aria-invalid="true" aria-describedby="form-error"` : ''}
        />
        <label for="first">First name</label>
        <input id="first" name="first" type="text" autocomplete="given-name" value="${values.first ?? ''}" />
        <label for="last">Last name</label>
        <input id="last" name="last" type="text" autocomplete="family-name" value="${values.last ?? ''}" />
        ${roleField(provider, values.role)}
        <button type="submit">Sign in</button>
      </form>`,
  );
}

const field = (body: unknown, name: string): string => {
  const v = body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
  return typeof v === 'string' ? v.trim().slice(0, 254) : '';
};

/** Reads the bearer token of a user-info call and returns the person it was issued for. */
async function tokenOwner(db: Db, idp: Provider, provider: UpstreamProvider, request: FastifyRequest) {
  const match = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '');
  const token = match?.[1] ? await idp.AccessToken.find(match[1]) : undefined;
  if (!token?.accountId) return undefined;
  const who = await loadAccount(db, provider, token.accountId);
  return who ? { accountId: token.accountId, who } : undefined;
}

/** Fastify routes of one dev provider: its sign-in page and, for the roster providers, their APIs. */
export function devIdpRoutes(
  scope: FastifyInstance,
  db: Db,
  idp: Provider,
  provider: UpstreamProvider,
): void {
  const base = `/dev/idp/${provider}`;
  const noStore = (reply: FastifyReply) =>
    reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
  /** This browser's interaction, only when it is the one the URL names. */
  const currentInteraction = async (request: DevRequest, reply: FastifyReply) => {
    const details = await idp.interactionDetails(request.raw, reply.raw).catch(() => undefined);
    return details?.uid === request.params.uid ? details : undefined;
  };

  scope.get(`${base}/interaction/:uid`, async (request: DevRequest, reply) => {
    const details = await currentInteraction(request, reply);
    if (!details) return refusePage(request, reply);
    const hint = typeof details.params.login_hint === 'string' ? details.params.login_hint : '';
    return noStore(reply).send(signInPage(provider, `${base}/interaction/${details.uid}`, { email: hint }));
  });

  scope.post(`${base}/interaction/:uid`, async (request: DevRequest, reply) => {
    const details = await currentInteraction(request, reply);
    if (!details) return refusePage(request, reply);
    const role = DEV_ROSTER_ROLES.find((r) => r === field(request.body, 'role'));
    const who: DevIdentity = {
      email: field(request.body, 'email'),
      first: field(request.body, 'first'),
      last: field(request.body, 'last'),
      ...(isSchoolRosterProvider(provider) && role ? { role } : {}),
    };
    const noEmail = takesNoEmail(provider, who);
    if (!noEmail && !isValidEmail(who.email)) {
      const error = isSchoolRosterProvider(provider)
        ? 'Enter a valid email address, or leave it empty and enter a name.'
        : 'Enter a valid email address.';
      return noStore(reply)
        .code(400)
        .send(signInPage(provider, `${base}/interaction/${details.uid}`, who, error));
    }
    if (!noEmail) who.email = normalizeEmail(who.email);
    const accountId = devAccountId(provider, who.email, `${who.first} ${who.last}`);
    await saveAccount(db, provider, accountId, who);
    const returnTo = await idp.interactionResult(
      request.raw,
      reply.raw,
      { login: { accountId } },
      { mergeWithLastSubmission: false },
    );
    return reply.redirect(returnTo, 303);
  });

  if (provider === 'Clever') {
    scope.get(`${base}/v3.0/me`, async (request, reply) => {
      const owner = await tokenOwner(db, idp, provider, request);
      if (!owner) return reply.code(401).send({ message: 'invalid token' });
      const c = devClaims(provider, owner.accountId, owner.who);
      return {
        type: 'user',
        data: { id: c.sub, district: c.district, type: 'user', authorized_by: 'district' },
        links: [],
      };
    });
    scope.get(
      `${base}/v3.0/users/:id`,
      async (request: FastifyRequest<{ Params: { id: string } }>, reply) => {
        const owner = await tokenOwner(db, idp, provider, request);
        if (!owner) return reply.code(401).send({ message: 'invalid token' });
        const c = devClaims(provider, owner.accountId, owner.who);
        if (request.params.id !== c.sub) return reply.code(403).send({ message: 'forbidden' });
        return {
          data: {
            id: c.sub,
            district: c.district,
            ...(owner.who.email ? { email: owner.who.email } : {}),
            name: { first: owner.who.first, last: owner.who.last },
            roles: { [String(c.user_type)]: { school: c.school, schools: [c.school] } },
          },
        };
      },
    );
  }
  if (provider === 'ClassLink') {
    scope.get(`${base}/v2/my/info`, async (request, reply) => {
      const owner = await tokenOwner(db, idp, provider, request);
      if (!owner) return reply.code(401).send({ message: 'invalid token' });
      const c = devClaims(provider, owner.accountId, owner.who);
      return {
        UserId: Number(c.sub),
        TenantId: c.TenantId,
        BuildingId: c.BuildingId,
        FirstName: owner.who.first,
        LastName: owner.who.last,
        DisplayName: `${owner.who.first} ${owner.who.last}`.trim(),
        Email: owner.who.email,
        LoginId: owner.who.email.split('@')[0] || owner.accountId.slice(0, 8),
        Profile: c.Role,
        Role: c.Role,
        SourcedId: c.SourcedId,
      };
    });

    /**
     * LaunchPad: the ClassLink portal whose app tiles open an app at its redirect URI with a code and
     * no state of the app's. The portal never exchanges such a code (it starts a sign-in of its own),
     * so the tile carries a random one, as opaque to the portal as LaunchPad's.
     */
    scope.get(`${base}/launchpad`, async (_request, reply) => {
      const launch = `${upstreamCallbackPath(provider)}?${new URLSearchParams({
        code: randomToken(),
        response_type: 'code',
      }).toString()}`;
      const title = 'ClassLink LaunchPad (development)';
      return noStore(reply).send(
        page(
          title,
          html`<h1>${title}</h1>
            <p class="note">
              This development page stands in for the ClassLink LaunchPad a student or teacher is already
              signed in to. Its app tile opens the portal the way LaunchPad does: at the portal's ClassLink
              redirect URI, with a code and without a state.
            </p>
            <a class="button" href="${launch}">Frontdoor</a>`,
        ),
      );
    });
  }
}

/**
 * Microsoft realm discovery as getuserrealm.srf?login=<email>&json=1 answers it, from DEV_REALMS
 * (Unknown for any other domain): the default REALM_UPSTREAM_URL when the dev identity provider is
 * on, so the work/school modal's three outcomes can be tried offline.
 */
export function devRealmRoute(
  scope: FastifyInstance,
  realms: ReadonlyMap<string, MicrosoftAccountType>,
): void {
  scope.get(DEV_REALM_PATH, async (request: FastifyRequest<{ Querystring: { login?: unknown } }>, reply) => {
    const login = typeof request.query.login === 'string' ? request.query.login.trim() : '';
    const domain = login.slice(login.lastIndexOf('@') + 1).toLowerCase();
    const type = (login.includes('@') && realms.get(domain)) || 'Unknown';
    reply.header('cache-control', 'no-store');
    return {
      State: 4,
      UserState: 1,
      Login: login,
      NameSpaceType: type,
      ...(type === 'Unknown' ? {} : { DomainName: domain }),
    };
  });
}
