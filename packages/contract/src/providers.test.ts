import { describe, expect, it } from 'vitest';
import { providerForAccountType } from './providers.ts';

describe('work/school email modal routing (§4)', () => {
  it('Managed leads to the work/school provider', () => {
    expect(providerForAccountType('Managed')).toBe('Microsoft');
  });
  it('Federated leads to the personal-accounts variant', () => {
    expect(providerForAccountType('Federated')).toBe('MicrosoftPersonal');
  });
  it('anything else falls back to the work/school provider', () => {
    expect(providerForAccountType('Unknown')).toBe('Microsoft');
    expect(providerForAccountType(undefined)).toBe('Microsoft');
  });
});
