import './zod-config.ts';
import * as z from 'zod/mini';
import {
  ACCESS_CODE_LENGTH,
  EMAIL_CODE_LENGTH,
  LEGACY_EMAIL_CODE_LENGTH,
  EMAIL_MAX_LENGTH,
  EMAIL_PREFERENCES,
  INVITE_CODE_MAX_LENGTH,
  NAME_MAX_LENGTH,
  TOKEN_MAX_LENGTH,
  SUBSCRIPTION_IDS,
} from './constants.ts';
import { errorCode, type MessageCode } from './messages.ts';
import { lazySchema } from './lazy-schema.ts';
import { isStorableText, isStrongPassword, isValidEmail, normalizeDigits, normalizeEmail } from './rules.ts';
import { UPSTREAM_PROVIDERS, identityProviderSchema, microsoftAccountTypeSchema } from './providers.ts';

/* ---------- envelope: every API answer is {status, payload} or {status:'error', msg, code} ---------- */

export const errorEnvelopeSchema = lazySchema(() =>
  z.object({
    status: z.literal('error'),
    msg: z.string(),
    code: z.optional(z.string()),
    /** The product a refusal names (accessCodeWrongProviderPrefix): the SPA says it in the page's language. */
    sp_name: z.optional(z.string()),
    /**
     * A resend refused while the code mailed before is on its way (inside its cooldown, or its mail
     * delayed): which code that is, so the page also offers the way to where it is typed.
     */
    pending: z.optional(resendResultSchema),
  }),
);
/** What an error answer may carry beside its code and msg. */
export type ErrorExtras = Pick<ErrorEnvelope, 'sp_name' | 'pending'>;
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

export const successEnvelope = <T extends z.ZodMiniType>(payload: T) =>
  z.object({ status: z.literal('success'), payload, msg: z.optional(z.string()) });

export const envelope = <T extends z.ZodMiniType>(payload: T) =>
  z.discriminatedUnion('status', [successEnvelope(payload), errorEnvelopeSchema]);

/* ---------- field schemas ---------- */

/**
 * Every email field: trimmed, checked by isValidEmail and normalised by normalizeEmail, the one place
 * an address is normalised, so the SPA and the API hold the same address; each form names its refusal.
 */
const emailField = (code: MessageCode) =>
  z.pipe(
    z
      .string(errorCode(code))
      .check(
        z.trim(),
        z.maxLength(EMAIL_MAX_LENGTH, errorCode(code)),
        z.refine(isValidEmail, errorCode(code)),
      ),
    z.transform(normalizeEmail),
  );

/**
 * The check of every token, id or code a client sends back to be looked up: one holding a NUL names
 * nothing stored (isStorableText), so it is refused here, a 400 on SQLite and PostgreSQL alike,
 * before PostgreSQL would refuse the query.
 */
export const storableText = () => z.refine<string>(isStorableText);

export const emailSchema = lazySchema(() => emailField('emailFormatInvalid'));

export const passwordSchema = lazySchema(() =>
  z
    .string(errorCode('passwordRequired'))
    .check(
      z.minLength(1, errorCode('passwordRequired')),
      z.maxLength(256, errorCode('passwordPolicy')),
      z.refine(isStrongPassword, errorCode('passwordPolicy')),
    ),
);

/**
 * A mailed code (LEGACY_EMAIL_CODE_LENGTH: one mailed before the upgrade). Codes arrive in any
 * script's digits (a phone's keyboard, a pasted message) and are kept in ASCII.
 */
export const emailCodeSchema = lazySchema(() =>
  z
    .string(errorCode('codeRequired'))
    .check(
      z.trim(),
      z.overwrite(normalizeDigits),
      z.regex(
        new RegExp(`^(\\d{${EMAIL_CODE_LENGTH}}|\\d{${LEGACY_EMAIL_CODE_LENGTH}})$`),
        errorCode('codeRequired'),
      ),
    ),
);

export const accessCodeSchema = lazySchema(() =>
  z
    .string(errorCode('accessCodeLength'))
    .check(
      z.trim(),
      z.overwrite(normalizeDigits),
      z.length(ACCESS_CODE_LENGTH, errorCode('accessCodeLength')),
    ),
);

/* ---------- §3 entities ---------- */

/** Email status values (§3); the server decides the next screen with one of these. */
export const EMAIL_STATUSES = ['login', 'create-account', 'unconfirmed', 'verify', 'reset-password'] as const;
export const emailStatusSchema = lazySchema(() => z.enum(EMAIL_STATUSES));
export type EmailStatus = z.infer<typeof emailStatusSchema>;

export const loginParamsSchema = lazySchema(() =>
  z.object({
    url: z.url(),
    isTeacher: z.boolean(),
    sp_id: z.string().check(z.minLength(1)),
  }),
);
export type LoginParams = z.infer<typeof loginParamsSchema>;

export const DESCRIPTIONS = ['teacher', 'student', 'administrator', 'parent', 'other'] as const;
export const descriptionSchema = lazySchema(() => z.enum(DESCRIPTIONS, errorCode('descriptionRequired')));
export type Description = z.infer<typeof descriptionSchema>;

export const rolesSchema = lazySchema(() => z.record(z.string(), z.array(z.int())));
export type Roles = z.infer<typeof rolesSchema>;

/**
 * What a school's directory or roster said of the person at their latest sign-in with a provider
 * (docs/identity.md, "What a product learns"); each provider gives some of it, roles lower case.
 */
export const identityDirectorySchema = lazySchema(() =>
  z.object({
    /** Microsoft's tid; ClassLink's tenant id. */
    tenant: z.optional(z.string()),
    /** Clever's district id. */
    district: z.optional(z.string()),
    /** Clever's school ids; ClassLink's BuildingId. */
    schools: z.optional(z.array(z.string())),
    /** Clever's user_type or role names, ClassLink's Role: e.g. student, teacher. */
    roles: z.optional(z.array(z.string())),
    /** ClassLink's OneRoster sourcedId of the person. */
    rosterId: z.optional(z.string()),
  }),
);
export type IdentityDirectory = z.infer<typeof identityDirectorySchema>;

/**
 * An upstream identity linked to the account: the provider's subject (its stable id of the person),
 * the email it asserted, whether it said that email is verified, and whether the portal trusts it
 * (verified, from Google or Apple): only then may it be the account's own email, a placeholder otherwise.
 */
export const linkedIdentitySchema = lazySchema(() =>
  z.object({
    provider: z.enum(UPSTREAM_PROVIDERS),
    subject: z.string(),
    email: z.nullable(z.string()),
    emailVerified: z.boolean(),
    emailTrusted: z.boolean(),
    ...identityDirectorySchema.shape,
  }),
);
export type LinkedIdentity = z.infer<typeof linkedIdentitySchema>;

export const signatureUserSchema = lazySchema(() =>
  z.object({
    id: z.string(),
    email: z.string(),
    first: z.string(),
    last: z.string(),
    roles: rolesSchema,
    /** Always sent by auth/sig; optional so a signature built without them (older servers, tests) parses. */
    identities: z.optional(z.array(linkedIdentitySchema)),
  }),
);
export type SignatureUser = z.infer<typeof signatureUserSchema>;

export const signatureSchema = lazySchema(() =>
  z.object({
    user: signatureUserSchema,
    masq: z.optional(signatureUserSchema),
  }),
);
export type Signature = z.infer<typeof signatureSchema>;

export const sessionSchema = lazySchema(() =>
  z.discriminatedUnion('loggedin', [
    z.object({
      loggedin: z.literal(true),
      payload: z.object({ token: z.string(), signature: signatureSchema }),
    }),
    z.object({ loggedin: z.literal(false), payload: z.null() }),
  ]),
);
export type Session = z.infer<typeof sessionSchema>;

/* ---------- request bodies and answers, per call of §7 ---------- */

export const validateEmailBody = lazySchema(() => z.object({ email: emailSchema }));
export const validateEmailResponse = lazySchema(() => envelope(emailStatusSchema));

export const getCsrfQuery = lazySchema(() =>
  z.object({
    r: z.optional(z.url()),
    p: identityProviderSchema,
    /** The portal's login request csrf (login_csrf), so the callback continues to /post-login/{csrf}. */
    c: z.optional(z.string().check(z.minLength(1), z.maxLength(TOKEN_MAX_LENGTH), storableText())),
  }),
);
export const getCsrfPayload = lazySchema(() =>
  z.object({
    csrf: z.string(),
    /**
     * PKCE S256 challenge of this state: the authorize url carries it as code_challenge with
     * code_challenge_method=S256 (the authorization server requires PKCE).
     */
    code_challenge: z.optional(z.string()),
  }),
);
export const getCsrfResponse = lazySchema(() => envelope(getCsrfPayload));

export const inviteEmailPayload = lazySchema(() => z.object({ email: z.string() }));
export const inviteEmailResponse = lazySchema(() => envelope(inviteEmailPayload));

const nameSchema = (required: MessageCode, tooLong: MessageCode) =>
  z
    .string(errorCode(required))
    .check(z.trim(), z.minLength(1, errorCode(required)), z.maxLength(NAME_MAX_LENGTH, errorCode(tooLong)));

/** An account's names, as the sign-up form and the admin CLI take them. */
const nameFields = () => ({
  first: nameSchema('firstNameRequired', 'firstNameTooLong'),
  last: nameSchema('lastNameRequired', 'lastNameTooLong'),
});
export const accountNames = lazySchema(() => z.object(nameFields()));

export const signupBody = lazySchema(() =>
  z.object({
    ...nameFields(),
    email: emailField('emailInvalidSignup'),
    pw: passwordSchema,
    description: descriptionSchema,
    code: z.optional(z.string().check(z.maxLength(INVITE_CODE_MAX_LENGTH), storableText())),
  }),
);
export type SignupBody = z.input<typeof signupBody>;
export const signupResponse = lazySchema(() => envelope(z.object({ email: z.string() })));

export const confirmBody = lazySchema(() => z.object({ un: emailSchema, code: emailCodeSchema }));
export type ConfirmBody = z.input<typeof confirmBody>;
/**
 * A confirmation's answer: newPasswordNeeded when the code came back to another browser than the
 * sign-up's, so the password chosen there is not kept (docs/SECURITY.md).
 */
export const confirmResponse = lazySchema(() =>
  envelope(z.object({ email: z.string(), newPasswordNeeded: z.boolean() })),
);

export const RESEND_RESULTS = ['password_reset', 'verify_email'] as const;
export const resendResultSchema = lazySchema(() => z.enum(RESEND_RESULTS));
export type ResendResult = z.infer<typeof resendResultSchema>;
export const resendVerificationResponse = lazySchema(() => envelope(resendResultSchema));

export const sendResetBody = lazySchema(() => z.object({ un: emailSchema }));

export const resetBody = lazySchema(() =>
  z
    .object({ un: emailSchema, code: emailCodeSchema, pw: passwordSchema, confirmPw: z.string() })
    .check(z.refine((b) => b.pw === b.confirmPw, errorCode('passwordsDoNotMatch', { path: ['confirmPw'] }))),
);
export type ResetBody = z.input<typeof resetBody>;

export const cognitoLoginBody = lazySchema(() =>
  z.object({
    email: emailSchema,
    password: z.string().check(z.minLength(1, errorCode('passwordRequired')), z.maxLength(256)),
    /** The authorization-server interaction this password check completes. */
    uid: z.optional(z.string().check(z.maxLength(TOKEN_MAX_LENGTH), storableText())),
  }),
);
export const cognitoLoginPayload = lazySchema(() => z.object({ redirect: z.string() }));

export const loginParamsResponse = lazySchema(() => envelope(loginParamsSchema));

export const createCsrfLoginBody = lazySchema(() =>
  z.object({ url: z.url(), isTeacher: z._default(z.boolean(), false) }),
);
export const createCsrfLoginPayload = lazySchema(() => z.object({ csrf: z.string() }));

/** GET gateway/getCsrfLogin/{csrf}: a login request's csrf. */
export const loginCsrfParams = lazySchema(() =>
  z.object({ csrf: z.string().check(z.minLength(1), z.maxLength(TOKEN_MAX_LENGTH), storableText()) }),
);
/** GET devportal/getInviteEmail/{code}. */
export const inviteCodeParams = lazySchema(() =>
  z.object({ code: z.string().check(z.minLength(1), z.maxLength(INVITE_CODE_MAX_LENGTH), storableText()) }),
);

/** gateway/session/:sid: whether the session a product token names (its `sid`) is still signed in. */
/** A session id is the sha256 (hex) of its cookie token. */
export const gatewaySessionParams = lazySchema(() =>
  z.object({ sid: z.string().check(z.regex(/^[0-9a-f]{64}$/)) }),
);
export const gatewaySessionPayload = lazySchema(() => z.object({ active: z.boolean() }));
export const gatewaySessionResponse = lazySchema(() => envelope(gatewaySessionPayload));

export const basicUserRoleParam = lazySchema(() => z.object({ isStudent: z.enum(['0', '1']) }));

export const subscriptionChangeSchema = lazySchema(() =>
  z.object({
    id: z.union(
      EMAIL_PREFERENCES.map((k) => z.literal(SUBSCRIPTION_IDS[k])) as unknown as [
        z.ZodMiniLiteral<number>,
        z.ZodMiniLiteral<number>,
      ],
    ),
    subscribed: z.boolean(),
  }),
);
export const subscriptionBody = lazySchema(() =>
  z.object({
    subscriptionChanges: z.array(subscriptionChangeSchema).check(
      z.minLength(1),
      z.maxLength(4),
      // each topic once: the last of two contradictory entries would win here and both reach the CRM
      z.refine((changes) => new Set(changes.map((c) => c.id)).size === changes.length),
    ),
  }),
);
export type SubscriptionChange = z.infer<typeof subscriptionChangeSchema>;
/**
 * GET hs/subscription (beside the spec): the account's stored choice for each of the four topics, in
 * the POST's shape; a topic it never saved is not subscribed.
 */
export const storedSubscriptionsPayload = lazySchema(() =>
  z.object({ subscriptions: z.array(subscriptionChangeSchema) }),
);
export const storedSubscriptionsResponse = lazySchema(() => envelope(storedSubscriptionsPayload));

/** The longest sp_id a route takes (accessCodes/login); `sp create` makes none longer. */
export const SP_ID_MAX_LENGTH = 100;

export const accessCodeParams = lazySchema(() =>
  z.object({
    code: accessCodeSchema,
    sp_id: z.string().check(z.minLength(1), z.maxLength(SP_ID_MAX_LENGTH), storableText()),
  }),
);
export const accessCodePayload = lazySchema(() => z.object({ cookie_hash: z.string(), sp_id: z.string() }));
export const accessCodeResponse = lazySchema(() => envelope(accessCodePayload));

/** How an account signs in (cognito/get_account_type): its password, or an upstream provider. */
export const ACCOUNT_METHODS = ['password', ...UPSTREAM_PROVIDERS] as const;
export const accountTypePayload = lazySchema(() =>
  z.object({
    exists: z.boolean(),
    methods: z.array(z.enum(ACCOUNT_METHODS)),
  }),
);
export const accountTypeResponse = lazySchema(() => envelope(accountTypePayload));
export type AccountTypePayload = z.infer<typeof accountTypePayload>;

export const realmBody = lazySchema(() =>
  z.object({
    email: emailField('workEmailInvalid'),
  }),
);
export const realmPayload = lazySchema(() =>
  z.object({
    accountType: microsoftAccountTypeSchema,
    domain: z.optional(z.string()),
  }),
);
export const realmResponse = lazySchema(() => envelope(realmPayload));
/**
 * The realm answer as the SPA reads it: any JSON that is no error. §7's reading, payload.accountType
 * or realmInfo.account_type, any text, anything else the work/school provider (§4), is the SPA's
 * providerForRealmAnswer. The portal's own server answers realmResponse.
 */
export const realmAnswer = lazySchema(() => z.unknown());

export const cookieQuery = lazySchema(() =>
  z.object({
    hash: z.string().check(z.minLength(1), z.maxLength(TOKEN_MAX_LENGTH), storableText()),
    return_url: z.url(),
    // the login csrf of the sign-in request: required, so a hash alone cannot start a session
    token: z.string().check(z.minLength(1), z.maxLength(TOKEN_MAX_LENGTH), storableText()),
  }),
);

/* ---------- §3 configuration file (assets/cfg/config.json) ---------- */

export const configSchema = lazySchema(() =>
  z.object({
    env: z.string().check(z.minLength(1)),
    apiUrl: z.string().check(z.minLength(1)),
    loginUrl: z.string().check(z.minLength(1)),
    siteUrls: z.object({
      root: z.string(),
      contactUs: z.string(),
      privacy: z.string(),
      terms: z.string(),
      help: z.string(),
    }),
    clientIds: z.object({ portal: z.string() }),
    redirectUri: z.string(),
    translation: z.object({ key: z.nullable(z.string()), scriptUrl: z.nullable(z.string()) }),
    sentryDsn: z.nullable(z.string()),
    requestTimeoutMs: z.int().check(z.positive()),
    providerName: z.string(),
  }),
);
export type PortalConfig = z.infer<typeof configSchema>;
export const isProduction = (cfg: Pick<PortalConfig, 'env'>): boolean => cfg.env === 'production';

/** One message of the development mailbox (GET /dev/mailbox.json, newest first; non-production only). */
export const mailboxMessageSchema = lazySchema(() =>
  z.object({
    to: z.string(),
    subject: z.string(),
    text: z.string(),
    html: z.string(),
    sentAt: z.number(),
  }),
);
export type MailboxMessage = z.infer<typeof mailboxMessageSchema>;
