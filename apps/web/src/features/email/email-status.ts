import { emailStatusSchema } from '@frontdoor/contract';
import type {
  AccountTypePayload,
  EmailStatus,
  IdentityProvider,
  UpstreamProvider,
} from '@frontdoor/contract';

/** The next step after auth/validateEmail (§4). The server decides; this is the one place that maps it. */
export type EmailNextStep =
  | { kind: 'sign-in' }
  | { kind: 'navigate'; to: '/create-account' | '/send-verification-code' }
  | { kind: 'forgot-password' }
  | { kind: 'unknown'; status: unknown };

function stepFor(status: EmailStatus): EmailNextStep {
  switch (status) {
    case 'login':
      return { kind: 'sign-in' };
    case 'create-account':
      return { kind: 'navigate', to: '/create-account' };
    case 'unconfirmed':
    case 'verify':
      return { kind: 'navigate', to: '/send-verification-code' };
    case 'reset-password':
      return { kind: 'forgot-password' };
    default: {
      // a new status in the contract union is a compile error here until it has a screen
      const unhandled: never = status;
      return { kind: 'unknown', status: unhandled };
    }
  }
}

/** Any value outside the contract union becomes 'unknown': the page logs it and does nothing (§4). */
export function nextStepForEmailStatus(status: unknown): EmailNextStep {
  const parsed = emailStatusSchema.safeParse(status);
  return parsed.success ? stepFor(parsed.data) : { kind: 'unknown', status };
}

/**
 * Which provider a 'login' email signs in with, from GET cognito/get_account_type (§7). An account with
 * no password but upstream methods goes to its first upstream provider (the built-in pool could not sign
 * it in); a password, no upstream method, or a failed call (null) keeps the built-in pool.
 */
export function signInProviderForAccount(account: AccountTypePayload | null): IdentityProvider {
  if (!account || account.methods.includes('password')) return 'COGNITO';
  return account.methods.find((m): m is UpstreamProvider => m !== 'password') ?? 'COGNITO';
}
