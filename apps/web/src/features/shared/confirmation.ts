import * as z from 'zod/mini';
import { errorCode, lazySchema } from '@frontdoor/contract';

/** §5 confirmation field: required, and equal to pw (checked even while other fields are invalid). */
export const confirmPwSchema = lazySchema(() =>
  z.string().check(z.minLength(1, errorCode('confirmPasswordRequired'))),
);

export function withConfirmation<T extends z.ZodMiniType<{ pw: string; confirmPw: string }>>(schema: T) {
  return schema.check(
    z.refine<{ pw: string; confirmPw: string }>(
      (form) => form.confirmPw === '' || form.pw === form.confirmPw,
      errorCode('passwordsDoNotMatch', { path: ['confirmPw'], when: () => true }),
    ),
  );
}
