import { lazy } from 'react';
import type { RouteObject } from 'react-router';
import LoginPage from './login/LoginPage.tsx';
import EmailPage from './email/EmailPage.tsx';
import CreateAccountPage from './signup/CreateAccountPage.tsx';
import AccessCodePage from './access-code/AccessCodePage.tsx';
import ErrorPage from './errors/ErrorPage.tsx';

/**
 * Every route of spec §2, each {csrf} route with and without the segment. The four pages a sign-in
 * starts on (prerendered by the build) are in the first bundle, so a page needs one script, not a
 * dozen small ones over a slow network; the pages after them load when first visited. The error
 * pages are in the first bundle too (0.3 kB): a timeout or a failing server sends the person there,
 * and a chunk asked of that same server might never come. The shell (src/shell) renders these
 * inside its layout; an unknown path shows the login page.
 */
const SendVerificationCodePage = lazy(() => import('./verification/SendVerificationCodePage.tsx'));
const CodePage = lazy(() => import('./verification/CodePage.tsx'));
const PostLoginPage = lazy(() => import('./post-login/PostLoginPage.tsx'));
const PasswordResetPage = lazy(() => import('./password-reset/PasswordResetPage.tsx'));
const ForgotPasswordPage = lazy(() => import('./password-reset/ForgotPasswordPage.tsx'));
const ValidatePage = lazy(() => import('./validate/ValidatePage.tsx'));
const SignInPage = lazy(() => import('./sign-in/SignInPage.tsx'));

export const featureRoutes: RouteObject[] = [
  { path: 'log-in', element: <LoginPage /> },
  { path: 'log-in/:csrf', element: <LoginPage /> },
  { path: 'email', element: <EmailPage /> },
  { path: 'send-verification-code', element: <SendVerificationCodePage /> },
  { path: 'create-account', element: <CreateAccountPage /> },
  { path: 'create-account/:csrf', element: <CreateAccountPage /> },
  { path: 'invite/:code', element: <CreateAccountPage /> },
  { path: 'code', element: <CodePage /> },
  { path: 'post-login', element: <PostLoginPage /> },
  { path: 'post-login/:csrf', element: <PostLoginPage /> },
  { path: 'password-reset', element: <PasswordResetPage /> },
  { path: 'forgot-password', element: <ForgotPasswordPage /> },
  { path: 'access-code', element: <AccessCodePage /> },
  { path: 'access-code/:csrf', element: <AccessCodePage /> },
  { path: 'validate', element: <ValidatePage /> },
  { path: 'error-generic', element: <ErrorPage kind="generic" /> },
  { path: 'error-generic/:csrf', element: <ErrorPage kind="generic" /> },
  { path: 'error-timeout', element: <ErrorPage kind="timeout" /> },
  { path: 'error-timeout/:csrf', element: <ErrorPage kind="timeout" /> },
  { path: 'sign-in/:uid', element: <SignInPage /> },
  { index: true, element: <LoginPage /> },
  { path: '*', element: <LoginPage /> },
];
