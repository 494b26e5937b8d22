import type { z } from 'zod';
import { signupBody } from '@frontdoor/contract';
import { confirmPwSchema, withConfirmation } from '../shared/confirmation.ts';

/** The sign-up form: the contract's signupBody (same rules as the server) plus the confirmation of §5. */
export const signupForm = withConfirmation(
  signupBody.omit({ code: true }).extend({ confirmPw: confirmPwSchema }),
);

export type SignupFormOutput = z.output<typeof signupForm>;
