import { describe, expect, it } from 'vitest';
import { hasAnyRole, hasRole } from './roles.ts';
import type { Signature } from './schemas.ts';

const user = (roles: Record<string, number[]>) => ({
  id: 'u',
  email: 'u@x.org',
  first: 'U',
  last: 'X',
  roles,
});

describe('role checks (§6)', () => {
  const signature: Signature = { user: user({ teacher: [1, 2], admin: [] }) };

  it('passes when the role is a key of the roles map', () => {
    expect(hasRole(signature, 'teacher')).toBe(true);
    expect(hasRole(signature, 'admin')).toBe(true);
    expect(hasRole(signature, 'student')).toBe(false);
  });

  it('requires a level greater than 0 to be in the role list', () => {
    expect(hasRole(signature, 'teacher', 2)).toBe(true);
    expect(hasRole(signature, 'teacher', 3)).toBe(false);
    expect(hasRole(signature, 'admin', 0)).toBe(true);
  });

  it('uses the masquerade user instead of the real user when present', () => {
    const masq: Signature = { user: user({ admin: [9] }), masq: user({ student: [1] }) };
    expect(hasRole(masq, 'admin')).toBe(false);
    expect(hasRole(masq, 'student', 1)).toBe(true);
  });

  it('multi-role check passes if any listed role matches, with an optional level per role', () => {
    expect(hasAnyRole(signature, [{ role: 'student' }, { role: 'teacher', level: 2 }])).toBe(true);
    expect(hasAnyRole(signature, [{ role: 'student' }, { role: 'teacher', level: 5 }])).toBe(false);
    expect(hasAnyRole(signature, [])).toBe(false);
  });

  it('throws before the session is set', () => {
    expect(() => hasRole(null, 'teacher')).toThrow(
      'Auth object has not been properly initialized, cannot perform role check!',
    );
    expect(() => hasAnyRole(undefined, [{ role: 'teacher' }])).toThrow(
      'Auth object has not been properly initialized, cannot perform role check!',
    );
  });

  it('does not treat inherited object keys as roles', () => {
    expect(hasRole(signature, 'toString')).toBe(false);
  });
});
