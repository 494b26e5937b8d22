import { z } from 'zod';
import { messages } from '@frontdoor/contract';

/** §5 confirmation field: required, and equal to pw (checked even while other fields are invalid). */
export const confirmPwSchema = z.string().min(1, messages.confirmPasswordRequired);

export function withConfirmation<T extends z.ZodType<{ pw: string; confirmPw: string }>>(schema: T) {
  return schema.refine((form) => form.confirmPw === '' || form.pw === form.confirmPw, {
    path: ['confirmPw'],
    message: messages.passwordsDoNotMatch,
    when: () => true,
  });
}
