import { describe, expect, it } from 'vitest';
import { ApiError } from './http.ts';

describe('ApiError', () => {
  it('a refusal (429, 503) cannot be made without its Retry-After: every 429 of the API carries one', () => {
    // the type check (npm run typecheck) fails on these lines once a refusal may omit Retry-After
    // @ts-expect-error a 429 says when trying again can succeed
    expect(new ApiError(429, 'tooManyRequests').retryAfterMs).toBeUndefined();
    // @ts-expect-error so does a 503
    expect(new ApiError(503, 'serverBusy', undefined).retryAfterMs).toBeUndefined();
    expect(new ApiError(429, 'attemptLimit', undefined, 1500).retryAfterMs).toBe(1500);
    expect(new ApiError(400, 'badRequest').retryAfterMs).toBeUndefined();
  });
});
