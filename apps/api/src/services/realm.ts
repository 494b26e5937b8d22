import type { CustomFetch } from 'openid-client';
import { microsoftAccountTypeSchema, type MicrosoftAccountType } from '@frontdoor/contract';
import type { AppContext } from '../context.ts';

const asAccountType = (value: unknown): MicrosoftAccountType => {
  const parsed = microsoftAccountTypeSchema.safeParse(value);
  return parsed.success ? parsed.data : 'Unknown';
};

/**
 * Microsoft realm discovery: the per-domain override table first, then the upstream (shaped like
 * getuserrealm.srf?login=<email>&json=1, answering NameSpaceType). An upstream that is unreachable,
 * slower than REALM_TIMEOUT_MS or answers nonsense is Unknown, which §4 sends to the work/school
 * provider: a sign-in never depends on Microsoft's endpoint being up. The failure is logged with the
 * domain only. `email` is as realmBody gives it (normalised). `fetchRealm` serves the dev identity
 * provider's realm route (the portal's own origin) in process.
 */
export async function lookupRealm(
  ctx: AppContext,
  email: string,
  fetchRealm: CustomFetch,
): Promise<{ accountType: MicrosoftAccountType; domain: string }> {
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
  try {
    const res = await fetchRealm(url.href, {
      method: 'GET',
      headers: { accept: 'application/json' },
      body: undefined,
      redirect: 'manual',
      signal: AbortSignal.timeout(ctx.config.realmTimeoutMs),
    });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const body: unknown = await res.json();
    if (!body || typeof body !== 'object' || !('NameSpaceType' in body))
      throw new Error('answer without NameSpaceType');
    return { accountType: asAccountType(body.NameSpaceType), domain };
  } catch (err) {
    const timedOut = err instanceof Error && err.name === 'TimeoutError';
    ctx.logger.warn(
      {
        domain,
        reason: timedOut ? `no answer within ${ctx.config.realmTimeoutMs} ms` : String(err),
      },
      'realm upstream failed; answering Unknown (the work/school provider)',
    );
    return { accountType: 'Unknown', domain };
  }
}
