import * as z from 'zod/mini';
import { containsPersonalWord, errorCode, lazySchema, signupBody } from '@frontdoor/contract';
import { confirmPwSchema, withConfirmation } from '../shared/confirmation.ts';

/**
 * The sign-up form: the contract's signupBody (same rules as the server) plus the confirmation of
 * §5, and the server's rule that the password holds no name or part of the email (the server's
 * common-password list stays there).
 */
export const signupForm = lazySchema(() =>
  withConfirmation(z.extend(z.omit(signupBody, { code: true }), { confirmPw: confirmPwSchema })).check(
    z.refine((form) => !containsPersonalWord(form.pw, form), errorCode('passwordPersonal', { path: ['pw'] })),
  ),
);

export type SignupFormOutput = z.output<typeof signupForm>;
