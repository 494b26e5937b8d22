import { API_PREFIX, DEV_SP_PATH, LOGIN_REQUEST_TTL_MS } from '@frontdoor/contract';
import type { AppContext } from '../context.ts';
import { audit } from './audit.ts';
import { createAccessCode, revokeAccessCodes } from './access-codes.ts';
import { createLoginRequest } from './login-requests.ts';
import { createServiceProvider, findServiceProvider, setOrigins } from './service-providers.ts';
import { findUserByEmail, hashPassword, newUserRow } from './users.ts';

/**
 * The demo of the README's quick start (`npm run seed`, development only): a service provider
 * standing in for a product, whose return page DEV_SP_PATH is served by the portal itself
 * (routes/dev.ts), so a sign-in starts and ends on this machine.
 */
export const DEMO_SP = { spId: 'demo', name: 'Demo Product' } as const;

/** Published in the README: development only, where the seed refuses production. */
export const DEMO_ACCOUNTS = {
  student: {
    email: 'student@demo.example',
    first: 'Sam',
    last: 'Rivera',
    description: 'student',
    password: 'Maple-Orbit-2718',
  },
  teacher: {
    email: 'teacher@demo.example',
    first: 'Tess',
    last: 'Okafor',
    description: 'teacher',
    password: 'Cedar-Comet-3141',
  },
} as const;
type DemoAccount = (typeof DEMO_ACCOUNTS)[keyof typeof DEMO_ACCOUNTS];

type SeedContext = Pick<AppContext, 'db' | 'config' | 'now'>;

export class DemoRefused extends Error {}

/** The demo's accounts have published passwords: never in production. */
export function assertDemoAllowed(config: Pick<AppContext['config'], 'production'>): void {
  if (config.production)
    throw new DemoRefused(
      'the demo is for development only: its accounts have published passwords (APP_ENV=production refuses it)',
    );
}

export interface DemoSeed {
  publicUrl: string;
  serviceProvider: {
    spId: string;
    name: string;
    returnUrl: string;
    clientId: string;
    /** Only when this run created the provider: a secret is shown once. */
    clientSecret?: string;
    created: boolean;
  };
  accounts: Record<
    keyof typeof DEMO_ACCOUNTS,
    { id: string; email: string; password: string; created: boolean }
  >;
  accessCode: { code: string; expiresAt: string };
  loginUrl: string;
  accessCodeUrl: string;
  loginExpiresAt: string;
  devSpUrl: string;
  mailboxUrl: string | null;
  apiDocsUrl: string | null;
}

/** The demo provider, allowed to return to the portal's own origin (where DEV_SP_PATH is). */
async function ensureProvider(ctx: SeedContext, origin: string) {
  const sp = await findServiceProvider(ctx.db, DEMO_SP.spId);
  if (!sp) {
    const created = await createServiceProvider(ctx.db, { ...DEMO_SP, origins: [origin] }, ctx.now());
    return { clientId: created.clientId, clientSecret: created.clientSecret, created: true };
  }
  // PUBLIC_URL (or PORT) changed since the last run: the return page moved with it
  if (!sp.origins.includes(origin)) await setOrigins(ctx.db, sp.spId, [...sp.origins, origin]);
  return { clientId: sp.clientId, created: false };
}

/** Creates the account, or puts it back as documented: the known password, confirmed, unlocked. */
async function ensureAccount(ctx: SeedContext, account: DemoAccount) {
  const now = ctx.now();
  const passwordHash = await hashPassword(account.password);
  const existing = await findUserByEmail(ctx.db, account.email);
  if (existing) {
    await ctx.db
      .updateTable('users')
      .set({
        password_hash: passwordHash,
        confirmed: 1,
        must_reset: 0,
        failed_attempts: 0,
        last_failed_at: null,
        locked_at: null,
        updated_at: now,
      })
      .where('id', '=', existing.id)
      .execute();
    return { id: existing.id, email: existing.email, password: account.password, created: false };
  }
  const { email, first, last, description } = account;
  const row = newUserRow({ email, first, last, description, passwordHash, confirmed: true }, now);
  await ctx.db.insertInto('users').values(row).execute();
  return { id: row.id, email: row.email, password: account.password, created: true };
}

/**
 * Makes the demo ready, as often as it is run: the provider and the two accounts are created once
 * (and put back as documented after), the student's access code is replaced by a new one (codes are
 * stored hashed, so only a new one can be shown), and a new login request opens. Refused in production.
 */
export async function seedDemo(ctx: SeedContext): Promise<DemoSeed> {
  const { config } = ctx;
  assertDemoAllowed(config);
  const origin = new URL(config.publicUrl).origin;
  const returnUrl = `${config.publicUrl}${DEV_SP_PATH}`;
  const sp = await ensureProvider(ctx, origin);
  const student = await ensureAccount(ctx, DEMO_ACCOUNTS.student);
  const teacher = await ensureAccount(ctx, DEMO_ACCOUNTS.teacher);
  await revokeAccessCodes(ctx, { spId: DEMO_SP.spId, userId: student.id });
  const code = await createAccessCode(ctx, { spId: DEMO_SP.spId, userId: student.id });
  const now = ctx.now();
  const csrf = await createLoginRequest(
    ctx.db,
    { spId: DEMO_SP.spId, url: returnUrl, isTeacher: false },
    now,
  );
  await audit(ctx, { event: 'admin.command', detail: { command: 'seed', ok: true } });
  return {
    publicUrl: config.publicUrl,
    serviceProvider: { ...DEMO_SP, returnUrl, ...sp },
    accounts: { student, teacher },
    accessCode: { code: code.code, expiresAt: new Date(code.expiresAt).toISOString() },
    loginUrl: `${config.publicUrl}/log-in/${csrf}`,
    accessCodeUrl: `${config.publicUrl}/access-code/${csrf}`,
    loginExpiresAt: new Date(now + LOGIN_REQUEST_TTL_MS).toISOString(),
    devSpUrl: returnUrl,
    mailboxUrl: config.devMailbox ? `${config.publicUrl}/dev/mailbox` : null,
    apiDocsUrl: config.apiDocs ? `${config.publicUrl}${API_PREFIX}docs` : null,
  };
}

/** What `npm run seed` prints for a person: what was made and what to open, in order. */
export function demoInstructions(seed: DemoSeed): string {
  const { student, teacher } = seed.accounts;
  const sp = seed.serviceProvider;
  const minutes = Math.round(LOGIN_REQUEST_TTL_MS / 60_000);
  const lines = [
    `Demo ready on ${seed.publicUrl} (the server must run with the same PUBLIC_URL and DATA_DIR / DATABASE_URL).`,
    '',
    `Service provider  ${sp.spId} ("${sp.name}"), returns to ${sp.returnUrl}`,
    `                  clientId ${sp.clientId}${
      sp.clientSecret
        ? `, clientSecret ${sp.clientSecret} (shown once)`
        : ` (new secret: npm run admin -- sp rotate-secret --id ${sp.spId})`
    }`,
    `Student           ${student.email}  password ${student.password}`,
    `Teacher           ${teacher.email}  password ${teacher.password}`,
    '',
    'Open:',
    `  Sign in        ${seed.loginUrl}`,
    `                 Continue with Email, ${student.email}, password ${student.password}, answer the`,
    `                 questions: you land on the demo product, signed in`,
    `  Access code    ${seed.accessCodeUrl}  code ${seed.accessCode.code} (the student's)`,
    `  Demo product   ${seed.devSpUrl}  (what the product received; sign in again or out there)`,
    ...(seed.mailboxUrl ? [`  Dev mailbox    ${seed.mailboxUrl}  (verification and reset codes)`] : []),
    ...(seed.apiDocsUrl ? [`  API docs       ${seed.apiDocsUrl}`] : []),
    '',
    `The sign-in links live ${minutes} minutes; run npm run seed again for new ones (it resets the demo accounts).`,
  ];
  return lines.join('\n');
}
