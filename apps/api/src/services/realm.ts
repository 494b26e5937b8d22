import { microsoftAccountTypeSchema, normalizeEmail, type MicrosoftAccountType } from '@frontdoor/contract';
import type { AppContext } from '../context.ts';
import { ApiError } from './http.ts';

const REALM_TIMEOUT_MS = 5000;

const asAccountType = (value: unknown): MicrosoftAccountType => {
  const parsed = microsoftAccountTypeSchema.safeParse(value);
  return parsed.success ? parsed.data : 'Unknown';
};

/**
 * Microsoft realm discovery: the per-domain override table first, then the upstream (shaped like
 * getuserrealm.srf?login=<email>&json=1, answering NameSpaceType). An unreachable or broken upstream
 * is a 502 envelope, which the SPA treats as "fall back to the work/school provider".
 */
export async function lookupRealm(
  ctx: AppContext,
  rawEmail: string,
): Promise<{ accountType: MicrosoftAccountType; domain: string }> {
  const email = normalizeEmail(rawEmail);
  const domain = email.slice(email.lastIndexOf('@') + 1);
  const override = await ctx.db
    .selectFrom('realm_overrides')
    .select('account_type')
    .where('domain', '=', domain)
    .executeTakeFirst();
  if (override) return { accountType: asAccountType(override.account_type), domain };

  const url = new URL(ctx.config.realmUpstreamUrl);
  url.searchParams.set('login', email);
  url.searchParams.set('json', '1');
  let body: unknown;
  try {
    const res = await fetch(url, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(REALM_TIMEOUT_MS),
    });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    body = await res.json();
  } catch (err) {
    ctx.logger.warn(
      { err: err instanceof Error ? err.message : String(err), domain },
      'realm upstream failed',
    );
    throw new ApiError(502, 'realmLookupFailed');
  }
  const nameSpaceType =
    body && typeof body === 'object' && 'NameSpaceType' in body ? body.NameSpaceType : undefined;
  return { accountType: asAccountType(nameSpaceType), domain };
}
