import type { ReactNode } from 'react';
import { Link } from '../../ui/Link.tsx';
import { loginPath } from './paths.ts';
import { useLoginCsrf } from './use-login-params.ts';

/** A link back to the login page of the sign-in under way (log-in/{csrf} while a login csrf is held). */
export function LoginLink({ children }: { children: ReactNode }) {
  return <Link to={loginPath(useLoginCsrf())}>{children}</Link>;
}
