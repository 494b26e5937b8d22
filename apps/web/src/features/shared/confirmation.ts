import { z } from 'zod';
import { errorCode } from '@frontdoor/contract';

/** §5 confirmation field: required, and equal to pw (checked even while other fields are invalid). */
export const confirmPwSchema = z.string().min(1, errorCode('confirmPasswordRequired'));

export function withConfirmation<T extends z.ZodType<{ pw: string; confirmPw: string }>>(schema: T) {
  return schema.refine(
    (form) => form.confirmPw === '' || form.pw === form.confirmPw,
    errorCode('passwordsDoNotMatch', { path: ['confirmPw'], when: () => true }),
  );
}
