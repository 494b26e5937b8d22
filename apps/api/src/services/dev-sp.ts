import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import {
  API_PREFIX,
  DEV_SP_PATH,
  PRODUCT_JWKS_PATH,
  PRODUCT_TOKEN_AUDIENCE,
  apiPaths,
  type Session,
} from '@frontdoor/contract';
import type { AppContext } from '../context.ts';
import { DEMO_SP } from './demo.ts';
import { html, type SafeHtml } from './html.ts';
import { productJwks } from './product-keys.ts';

export const DEV_SP_LOG_IN_PATH = `${DEV_SP_PATH}/log-in`;
export const DEV_SP_SIGN_OUT_PATH = `${DEV_SP_PATH}/sign-out`;
const SIG_PATH = `${API_PREFIX}${apiPaths.sig}`;

export interface TokenCheck {
  header: unknown;
  claims: unknown;
  /** Why a product would refuse the token; null when it verifies. */
  problem: string | null;
}

/**
 * The product token checked the way a product does: signature against the keys published at
 * PRODUCT_JWKS_PATH, issuer PUBLIC_URL, audience PRODUCT_TOKEN_AUDIENCE, not expired.
 */
export async function checkProductToken(
  ctx: Pick<AppContext, 'db' | 'config' | 'now'>,
  token: string,
): Promise<TokenCheck> {
  let header: unknown = null;
  let claims: unknown = null;
  try {
    header = decodeProtectedHeader(token);
    claims = decodeJwt(token);
    await jwtVerify(token, createLocalJWKSet(await productJwks(ctx)), {
      issuer: ctx.config.publicUrl,
      audience: PRODUCT_TOKEN_AUDIENCE,
      algorithms: ['ES256'],
      currentDate: new Date(ctx.now()),
    });
    return { header, claims, problem: null };
  } catch (err) {
    return { header, claims, problem: err instanceof Error ? err.message : String(err) };
  }
}

const json = (value: unknown): SafeHtml => html`<pre>${JSON.stringify(value, null, 2)}</pre>`;

/**
 * The body of /dev/sp: what a product receives after a sign-in (auth/sig's answer for this browser,
 * the product token verified as a product does), with links to sign in again and out. Script-free,
 * every value escaped.
 */
export async function devSpBody(
  ctx: Pick<AppContext, 'db' | 'config' | 'now'>,
  view: Session,
  demoProviderReady: boolean,
): Promise<SafeHtml> {
  const intro = html`<h1>${DEMO_SP.name}</h1>
<p class="meta">A development page standing in for a product (service provider <code>${DEMO_SP.spId}</code>): after a sign-in the portal sends the browser here, and this is what the product receives. Production answers 404.</p>`;
  const signIn = demoProviderReady
    ? html`<p><a href="${DEV_SP_LOG_IN_PATH}">${view.loggedin ? 'Sign in again' : 'Sign in'}</a> (opens a new login request of the demo provider)</p>`
    : html`<p>The demo service provider does not exist yet: run <code>npm run seed</code>, then reload.</p>`;
  if (!view.loggedin)
    return html`${intro}
<h2>Not signed in</h2>
<p>${SIG_PATH} answers <code>loggedin: false</code> for this browser.</p>
${signIn}`;

  const { token, signature } = view.payload;
  const check = await checkProductToken(ctx, token);
  // who it is, as a product's server learns it: from the verified token, never the signature
  const claims = (check.problem ? {} : check.claims) as Record<string, unknown>;
  const person = (prefix: '' | 'masq_') =>
    html`<strong>${`${String(claims[`${prefix}given_name`])} ${String(claims[`${prefix}family_name`])}`}</strong> (${String(claims[`${prefix}email`])})`;
  const verdict = check.problem
    ? html`<p><strong>Not verified</strong>: ${check.problem}</p>`
    : html`<p><strong>Verified</strong> against the published keys <a href="${PRODUCT_JWKS_PATH}">${PRODUCT_JWKS_PATH}</a>: ES256, issuer ${ctx.config.publicUrl}, audience ${PRODUCT_TOKEN_AUDIENCE}, not expired.</p>`;
  const who = check.problem
    ? html`<p>The token does not verify: a product would not know who this is.</p>`
    : html`<p>Signed in as ${person('')}${claims.masq ? html`, acting as ${person('masq_')} (masquerade)` : ''}.</p>`;
  return html`${intro}
<h2>Signed in</h2>
${who}
<h2>Signature (${SIG_PATH})</h2>
${json(signature)}
<h2>Product token</h2>
${verdict}
<h3>Header</h3>
${json(check.header)}
<h3>Claims</h3>
${json(check.claims)}
<details><summary>The token as received</summary><pre>${token}</pre></details>
<h2>Next</h2>
${signIn}
<form method="post" action="${DEV_SP_SIGN_OUT_PATH}"><button type="submit">Sign out</button></form>`;
}
