import { lazy, type ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { pagePaths } from '@frontdoor/contract';
import LoginPage from './login/LoginPage.tsx';
import EmailPage from './email/EmailPage.tsx';
import CreateAccountPage from './signup/CreateAccountPage.tsx';
import AccessCodePage from './access-code/AccessCodePage.tsx';
import ErrorPage from './errors/ErrorPage.tsx';
import { isBundled, loadLaterCatalogs } from '../lib/i18n/load.ts';

/**
 * Every page of spec §2 (the contract's pagePaths), each {csrf} page with and without the segment. The four pages a sign-in
 * starts on (prerendered by the build) are in the first bundle, so a page needs one script, not a
 * dozen small ones over a slow network; the pages after them load when first visited. The error
 * pages are in the first bundle too (0.3 kB): a timeout or a failing server sends the person there,
 * and a chunk asked of that same server might never come. The shell (src/shell) renders these
 * inside its layout; an unknown path shows the login page.
 */
const laterPage = (load: () => Promise<{ default: ComponentType }>) =>
  lazy(() => {
    // its texts (useLaterTranslation) download beside its chunk, not one round trip after it
    const { lang } = document.documentElement;
    if (isBundled(lang)) loadLaterCatalogs(lang).catch(() => undefined);
    return load();
  });
const SendVerificationCodePage = laterPage(() => import('./verification/SendVerificationCodePage.tsx'));
const CodePage = laterPage(() => import('./verification/CodePage.tsx'));
const PostLoginPage = laterPage(() => import('./post-login/PostLoginPage.tsx'));
const PasswordResetPage = laterPage(() => import('./password-reset/PasswordResetPage.tsx'));
const ForgotPasswordPage = laterPage(() => import('./password-reset/ForgotPasswordPage.tsx'));
const ValidatePage = laterPage(() => import('./validate/ValidatePage.tsx'));
const SignInPage = laterPage(() => import('./sign-in/SignInPage.tsx'));

export const featureRoutes: RouteObject[] = [
  { path: pagePaths.logIn, element: <LoginPage /> },
  { path: pagePaths.logInCsrf, element: <LoginPage /> },
  { path: pagePaths.email, element: <EmailPage /> },
  { path: pagePaths.sendVerificationCode, element: <SendVerificationCodePage /> },
  { path: pagePaths.createAccount, element: <CreateAccountPage /> },
  { path: pagePaths.createAccountCsrf, element: <CreateAccountPage /> },
  { path: pagePaths.invite, element: <CreateAccountPage /> },
  { path: pagePaths.code, element: <CodePage /> },
  { path: pagePaths.postLogin, element: <PostLoginPage /> },
  { path: pagePaths.postLoginCsrf, element: <PostLoginPage /> },
  { path: pagePaths.passwordReset, element: <PasswordResetPage /> },
  { path: pagePaths.forgotPassword, element: <ForgotPasswordPage /> },
  { path: pagePaths.accessCode, element: <AccessCodePage /> },
  { path: pagePaths.accessCodeCsrf, element: <AccessCodePage /> },
  { path: pagePaths.validate, element: <ValidatePage /> },
  { path: pagePaths.errorGeneric, element: <ErrorPage kind="generic" /> },
  { path: pagePaths.errorGenericCsrf, element: <ErrorPage kind="generic" /> },
  { path: pagePaths.errorTimeout, element: <ErrorPage kind="timeout" /> },
  { path: pagePaths.errorTimeoutCsrf, element: <ErrorPage kind="timeout" /> },
  { path: pagePaths.signIn, element: <SignInPage /> },
  { index: true, element: <LoginPage /> },
  { path: '*', element: <LoginPage /> },
];
