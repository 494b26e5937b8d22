import {
  accessCodeResponse,
  accountTypeResponse,
  apiPaths,
  cognitoLoginPayload,
  confirmResponse,
  envelope,
  getCsrfResponse,
  inviteEmailResponse,
  lazySchema,
  loginParamsResponse,
  realmAnswer,
  resendVerificationResponse,
  signupResponse,
  storedSubscriptionsResponse,
} from '@frontdoor/contract';
import type {
  ConfirmBody,
  IdentityProvider,
  PortalConfig,
  ResetBody,
  SignupBody,
  SubscriptionChange,
} from '@frontdoor/contract';
import * as z from 'zod/mini';
import { apiRequest } from '../../lib/http.ts';

/** One thin function per call of §7 the pages make; each returns the success envelope or throws ApiError. */
type Cfg = Pick<PortalConfig, 'apiUrl' | 'requestTimeoutMs'>;

// built when first used, as the contract's own schemas are (lazySchema)
const anyPayload = lazySchema(() => envelope(z.unknown()));
const redirectResponse = lazySchema(() => envelope(cognitoLoginPayload));

/** Any string status passes here: nextStepForEmailStatus logs a value outside the contract union (§4). */
export const validateEmail = (cfg: Cfg, email: string) =>
  apiRequest(cfg, 'POST', apiPaths.validateEmail, envelope(z.string()), { email });

/** Which sign-in methods the account of a 'login' email has (password and/or upstream providers). */
export const getAccountType = (cfg: Cfg, email: string) =>
  apiRequest(cfg, 'GET', apiPaths.accountType(email), accountTypeResponse);

/** Ends the server session and clears its cookie. */
export const cognitoLogout = (cfg: Cfg) => apiRequest(cfg, 'GET', apiPaths.cognitoLogout, anyPayload);

export const getCsrf = (cfg: Cfg, query: { r: string; p: IdentityProvider; c?: string | undefined }) =>
  apiRequest(cfg, 'GET', apiPaths.getCsrf, getCsrfResponse, undefined, query);

export const getCsrfLogin = (cfg: Cfg, csrf: string) =>
  apiRequest(cfg, 'GET', apiPaths.getCsrfLogin(csrf), loginParamsResponse);

export const getInviteEmail = (cfg: Cfg, code: string) =>
  apiRequest(cfg, 'GET', apiPaths.inviteEmail(code), inviteEmailResponse);

export const signup = (cfg: Cfg, body: SignupBody) =>
  apiRequest(cfg, 'POST', apiPaths.signup, signupResponse, body);

export const confirm = (cfg: Cfg, body: ConfirmBody) =>
  apiRequest(cfg, 'POST', apiPaths.confirm, confirmResponse, body);

export const resendVerification = (cfg: Cfg, email: string) =>
  apiRequest(cfg, 'GET', apiPaths.resendVerification(email), resendVerificationResponse);

export const sendReset = (cfg: Cfg, email: string) =>
  apiRequest(cfg, 'POST', apiPaths.sendReset, anyPayload, { un: email });

export const resetPassword = (cfg: Cfg, body: ResetBody) =>
  apiRequest(cfg, 'POST', apiPaths.reset, anyPayload, body);

export const setBasicUserRole = (cfg: Cfg, isStudent: boolean) =>
  apiRequest(cfg, 'GET', apiPaths.setBasicUserRole(isStudent), anyPayload);

/** The account's stored email preferences (beside the spec), for the boxes to start from. */
export const getStoredSubscriptions = (cfg: Cfg) =>
  apiRequest(cfg, 'GET', apiPaths.subscription, storedSubscriptionsResponse);

export const saveSubscriptions = (cfg: Cfg, subscriptionChanges: SubscriptionChange[]) =>
  apiRequest(cfg, 'POST', apiPaths.subscription, anyPayload, { subscriptionChanges });

export const accessCodeLogin = (cfg: Cfg, code: string, spId: string) =>
  apiRequest(cfg, 'GET', apiPaths.accessCodeLogin(code, spId), accessCodeResponse);

export const microsoftUserRealm = (cfg: Cfg, email: string) =>
  apiRequest(cfg, 'POST', apiPaths.microsoftUserRealm, realmAnswer, { email });

/**
 * The built-in user pool's password check (identity helper's endpoint): payload.redirect is where the
 * browser goes next. Kept as one thin function in case the endpoint's final shape changes.
 */
export const cognitoLogin = (cfg: Cfg, body: { email: string; password: string; uid: string }) =>
  apiRequest(cfg, 'POST', apiPaths.cognitoLogin, redirectResponse, body);
