import type { FastifyInstance } from 'fastify';
import * as z from 'zod/mini';
import {
  API_PREFIX,
  PRODUCT_JWKS_MAX_AGE_SECONDS,
  PRODUCT_JWKS_PATH,
  accessCodeParams,
  accessCodeResponse,
  accountTypeResponse,
  basicUserRoleParam,
  confirmBody,
  confirmResponse,
  cookieQuery,
  createCsrfLoginBody,
  createCsrfLoginPayload,
  emailSchema,
  envelope,
  errorEnvelopeSchema,
  gatewaySessionParams,
  gatewaySessionResponse,
  inviteEmailResponse,
  loginParamsResponse,
  realmBody,
  realmResponse,
  resendVerificationResponse,
  resetBody,
  sendResetBody,
  sessionSchema,
  signupBody,
  signupResponse,
  storedSubscriptionsResponse,
  subscriptionBody,
  validateEmailBody,
  validateEmailResponse,
} from '@frontdoor/contract';
import type { AppContext } from '../context.ts';
import { html, htmlPage } from '../services/html.ts';

interface Operation {
  method: 'get' | 'post';
  path: string;
  summary: string;
  body?: z.ZodMiniType;
  params?: z.ZodMiniObject;
  query?: z.ZodMiniObject;
  response: z.ZodMiniType;
  /** Error statuses this call answers besides 400 (bad input) and 429 (rate limited). */
  errors?: number[];
  /** A call a browser is sent to: where its 302 goes (its errors are a page for a browser). */
  redirect?: string;
  security?: 'session' | 'basic';
  /** For a second operation on one path: the one derived from the path would be taken. */
  operationId?: string;
}

const nullResponse = envelope(z.null());

/** auth/sig answers the session (§7: loggedin and payload) beside the envelope's status. */
const [signedIn, signedOut] = sessionSchema._zod.def.options;
const sigResponse = z.discriminatedUnion('loggedin', [
  z.extend(signedIn, { status: z.literal('success') }),
  z.extend(signedOut, { status: z.literal('success') }),
]);

/** Every call of §7 served here (the identity module documents cognito/login, social/get_csrf and the callback). */
const operations: Operation[] = [
  {
    method: 'post',
    path: 'auth/validateEmail',
    summary: 'Email status of an address',
    body: validateEmailBody,
    response: validateEmailResponse,
  },
  {
    method: 'get',
    path: 'auth/sig',
    summary: 'The current session (loggedin, token, signature)',
    response: sigResponse,
  },
  {
    method: 'get',
    path: 'auth/setBasicUserRole/{isStudent}',
    summary: 'Sets the student flag of the signed-in user (403 while masquerading)',
    params: basicUserRoleParam,
    response: envelope(z.object({ isStudent: z.boolean() })),
    errors: [401, 403],
    security: 'session',
  },
  {
    method: 'get',
    path: 'auth/cookie',
    summary:
      'Trades a cookie hash for a session cookie and redirects (302) to return_url (403 cookiesBlocked for a browser that keeps no cookies, accountDisabled for an account an operator turned off)',
    query: cookieQuery,
    response: errorEnvelopeSchema,
    redirect: 'to return_url, the session cookie set',
    errors: [403],
  },
  {
    method: 'get',
    path: 'cognito/logout',
    summary: 'Ends the session (403 crossSiteRequest from a page of another site not in CORS_ORIGINS)',
    response: nullResponse,
    errors: [403],
  },
  {
    method: 'post',
    path: 'cognito/signup',
    summary: 'Creates an account and mails a verification code',
    body: signupBody,
    response: signupResponse,
    errors: [409],
  },
  {
    method: 'post',
    path: 'cognito/confirm',
    summary:
      'Confirms an account with its mailed code; newPasswordNeeded when another browser than the sign-up’s confirmed it',
    body: confirmBody,
    response: confirmResponse,
    errors: [409],
  },
  {
    method: 'get',
    path: 'cognito/resend_verification/{email}',
    summary: 'Mails a new verification code (verify_email) or a reset code (password_reset)',
    params: z.object({ email: emailSchema }),
    response: resendVerificationResponse,
    errors: [404, 409],
  },
  {
    method: 'post',
    path: 'cognito/sendreset',
    summary: 'Mails a password reset code if the account exists',
    body: sendResetBody,
    response: nullResponse,
  },
  {
    method: 'post',
    path: 'cognito/reset',
    summary: 'Sets a new password with a reset code (errors embed JSON in msg)',
    body: resetBody,
    response: nullResponse,
  },
  {
    method: 'get',
    path: 'cognito/get_account_type/{email}',
    summary: 'Sign-in methods of an account',
    params: z.object({ email: emailSchema }),
    response: accountTypeResponse,
  },
  {
    method: 'get',
    path: 'devportal/getInviteEmail/{code}',
    summary: 'Email of an invitation',
    params: z.object({ code: z.string() }),
    response: inviteEmailResponse,
    errors: [404, 409],
  },
  {
    method: 'post',
    path: 'gateway/createCsrfLogin',
    summary: 'A service provider opens a login request',
    body: createCsrfLoginBody,
    response: envelope(createCsrfLoginPayload),
    errors: [401],
    security: 'basic',
  },
  {
    method: 'get',
    path: 'gateway/session/{sid}',
    summary: 'Whether the session a product token names (its sid) is still signed in',
    params: gatewaySessionParams,
    response: gatewaySessionResponse,
    errors: [401],
    security: 'basic',
  },
  {
    method: 'get',
    path: 'gateway/getCsrfLogin/{csrf}',
    summary: 'Login params of a login request',
    params: z.object({ csrf: z.string() }),
    response: loginParamsResponse,
    errors: [404],
  },
  {
    method: 'get',
    path: 'hs/subscription',
    summary: "The signed-in account's stored email preferences (beside the spec; 403 while masquerading)",
    response: storedSubscriptionsResponse,
    errors: [401, 403],
    security: 'session',
    operationId: 'hs_subscription_stored',
  },
  {
    method: 'post',
    path: 'hs/subscription',
    summary: 'Stores the email preferences (403 while masquerading)',
    body: subscriptionBody,
    response: envelope(z.object({ saved: z.number(), forwarded: z.boolean() })),
    errors: [401, 403],
    security: 'session',
  },
  {
    method: 'get',
    path: 'accessCodes/login/{code}/{sp_id}',
    summary:
      'Redeems a classroom access code for a cookie hash (403 crossSiteRequest from a page of another site, cookiesBlocked for a browser that keeps no cookies)',
    params: accessCodeParams,
    response: accessCodeResponse,
    errors: [403, 404],
  },
  {
    method: 'post',
    path: 'v2/auth/microsoft-user-realm',
    summary: 'Microsoft realm discovery (an unreachable or slow upstream answers Unknown)',
    body: realmBody,
    response: realmResponse,
  },
];

const jsonSchema = (schema: z.ZodMiniType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' });

function parameters(op: Operation) {
  const list: object[] = [];
  for (const [where, schema] of [
    ['path', op.params],
    ['query', op.query],
  ] as const) {
    if (!schema) continue;
    for (const [name, field] of Object.entries(schema.shape)) {
      list.push({
        name,
        in: where,
        required: where === 'path' || !(field as z.ZodMiniType).safeParse(undefined).success,
        schema: jsonSchema(field as z.ZodMiniType, 'input'),
      });
    }
  }
  return list;
}

/** OpenAPI 3.1, generated from the contract's zod schemas (the same ones the routes validate with). */
function openApiDocument(publicUrl: string) {
  const paths: Record<string, Record<string, object>> = {};
  const error = {
    description: 'Error envelope',
    content: { 'application/json': { schema: jsonSchema(errorEnvelopeSchema, 'output') } },
  };
  const pageOrError = {
    ...error,
    description: 'Error envelope; a browser (Accept: text/html) gets the portal page with the same message',
  };
  for (const op of operations) {
    const failure = op.redirect ? pageOrError : error;
    const responses: Record<string, object> = {
      ...(op.redirect
        ? {
            '302': {
              description: `Redirects ${op.redirect}`,
              headers: { location: { schema: { type: 'string', format: 'uri' } } },
            },
          }
        : {
            '200': {
              description: 'Success',
              content: { 'application/json': { schema: jsonSchema(op.response, 'output') } },
            },
          }),
      '400': failure,
      '429': failure,
    };
    for (const status of op.errors ?? []) responses[String(status)] = failure;
    const key = `/${op.path}`;
    paths[key] = {
      ...paths[key],
      [op.method]: {
        summary: op.summary,
        operationId:
          op.operationId ??
          op.path
            .replace(/\{[^}]+\}/g, '')
            .replace(/[^A-Za-z0-9]+/g, '_')
            .replace(/_+$/, ''),
        parameters: parameters(op),
        ...(op.body
          ? {
              requestBody: {
                required: true,
                content: { 'application/json': { schema: jsonSchema(op.body, 'input') } },
              },
            }
          : {}),
        ...(op.security === 'basic'
          ? { security: [{ serviceProvider: [] }] }
          : op.security === 'session'
            ? { security: [{ session: [] }] }
            : {}),
        responses,
      },
    };
  }
  // at the site's root, not under the API
  paths[PRODUCT_JWKS_PATH] = {
    servers: [{ url: publicUrl }],
    get: {
      summary: `The public keys products verify the auth/sig token with (Cache-Control: public, max-age=${PRODUCT_JWKS_MAX_AGE_SECONDS})`,
      operationId: 'productJwks',
      responses: {
        '200': {
          description: 'A JWK Set: EC P-256 keys for ES256, each with its kid',
          content: {
            'application/json': {
              schema: { type: 'object', required: ['keys'], properties: { keys: { type: 'array' } } },
            },
          },
        },
      },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Frontdoor API',
      version: '1.0.0',
      description:
        'Calls of the sign-in portal. POSTs from browsers send the x-csrf-token header equal to the __Host-fd_csrf cookie (fd_csrf on a local http PUBLIC_URL), which every answer also names in its x-csrf-token header.',
    },
    servers: [{ url: `${publicUrl}${API_PREFIX.slice(0, -1)}` }],
    components: {
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'fd_session' },
        serviceProvider: { type: 'http', scheme: 'basic' },
      },
    },
    paths,
  };
}

export const docsRoutes =
  (ctx: AppContext) =>
  async (app: FastifyInstance): Promise<void> => {
    // production does not publish its API surface unless API_DOCS=on; both paths then answer 404
    if (!ctx.config.apiDocs) return;
    const document = openApiDocument(ctx.config.publicUrl);
    app.get('/docs.json', async () => document);
    app.get('/docs', async (_request, reply) => {
      const schema = (value: unknown) => JSON.stringify(value, null, 2);
      const rows = operations.map(
        (
          op,
        ) => html`<article><h2><code>${op.method.toUpperCase()} ${`${API_PREFIX}${op.path}`}</code></h2><p>${op.summary}</p>
${op.security === 'basic' ? html`<p>Server to server: HTTP Basic <code>clientId:clientSecret</code> of <code>npm run admin -- sp create</code>; no CSRF header.</p>` : op.security === 'session' ? html`<p>Needs the browser's session cookie.</p>` : ''}
${op.errors?.length ? html`<p>Besides 400 and 429: ${op.errors.join(', ')}.</p>` : ''}
${op.body ? html`<details><summary>Body schema</summary><pre>${schema(jsonSchema(op.body, 'input'))}</pre></details>` : ''}
<details><summary>Response schema</summary><pre>${schema(jsonSchema(op.response, 'output'))}</pre></details></article>
`,
      );
      const body = html`<h1>Frontdoor API</h1><p>Machine-readable: <a href="${API_PREFIX}docs.json">${API_PREFIX}docs.json</a> (OpenAPI 3.1).
Errors answer <code>{"status":"error","msg","code"}</code>; state-changing calls from a browser need the <code>x-csrf-token</code> header equal to the <code>__Host-fd_csrf</code> cookie (<code>fd_csrf</code> on a local http address), which every answer also names in its <code>x-csrf-token</code> header.</p>${rows}`;
      return reply.type('text/html; charset=utf-8').send(htmlPage('Frontdoor API', body));
    });
  };
