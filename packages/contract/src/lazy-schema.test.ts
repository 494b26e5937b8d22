import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { lazySchema } from './lazy-schema.ts';
import { signupBody, validateEmailBody, validateEmailResponse } from './schemas.ts';

describe('lazySchema', () => {
  it('builds nothing until the schema is read, then builds it once', () => {
    const build = vi.fn(() => z.string().check(z.minLength(2)));
    const schema = lazySchema(build);
    expect(build).not.toHaveBeenCalled();
    expect(schema.safeParse('ab').success).toBe(true);
    expect(schema.safeParse('a').success).toBe(false);
    expect(build).toHaveBeenCalledOnce();
  });

  it('composes into other schemas, lazily too, and is an instance of what it builds', () => {
    const inner = lazySchema(() => z.object({ code: z.string().check(z.length(6)) }));
    const outer = lazySchema(() => z.object({ inner, note: z.optional(inner) }));
    expect(outer.parse({ inner: { code: '123456' } })).toEqual({ inner: { code: '123456' } });
    expect(outer.safeParse({ inner: { code: '1' } }).error?.issues[0]?.path).toEqual(['inner', 'code']);
    expect(inner instanceof z.ZodMiniObject).toBe(true);
    expect('_zod' in inner).toBe(true);
  });

  it("the contract's lazy schemas parse, transform and name their codes as eager ones did", () => {
    expect(validateEmailBody.parse({ email: '  Ann@School.TEST ' })).toEqual({ email: 'ann@school.test' });
    expect(validateEmailBody.safeParse({ email: 'nope' }).error?.issues[0]?.message).toBe(
      'emailFormatInvalid',
    );
    expect(signupBody.safeParse({}).success).toBe(false);
    // an envelope is a discriminated union over lazy members
    expect(validateEmailResponse.parse({ status: 'success', payload: 'login' })).toEqual({
      status: 'success',
      payload: 'login',
    });
    expect(validateEmailResponse.parse({ status: 'error', msg: 'x', code: 'badRequest' }).status).toBe(
      'error',
    );
  });
});
