import { describe, expect, it } from 'vitest';
import { NAME_MAX_LENGTH } from '@frontdoor/contract';
import { MICROSOFT_PERSONAL_TENANT } from './settings.ts';
import {
  UpstreamIdentityError,
  fromApple,
  fromClassLinkInfo,
  fromClassLinkOidc,
  fromCleverApi,
  fromCleverOidc,
  fromGoogle,
  fromMicrosoft,
  providerName,
} from './upstream-identity.ts';

const ORG_TENANT = '72f988bf-86f1-41af-91ab-2d7cd011db47';

describe('upstream identities', () => {
  it('Google: sub is the key; a verified email is trusted, and links only where Google owns the address', () => {
    const verified = fromGoogle({
      sub: '1234',
      email: 'Ada@School.example',
      email_verified: true,
      given_name: 'Ada',
      family_name: 'Byron',
    });
    expect(verified).toEqual({
      provider: 'Google',
      subject: '1234',
      email: 'ada@school.example',
      emailVerified: true,
      emailTrusted: true,
      // a Google account made on a school's address that Google does not host: verified once only
      linkableEmail: false,
      first: 'Ada',
      last: 'Byron',
      directory: {},
    });
    const owned = (claims: Record<string, unknown>) =>
      fromGoogle({ sub: '1', email_verified: true, ...claims }).linkableEmail;
    expect(owned({ email: 'ada@gmail.com' })).toBe(true);
    expect(owned({ email: 'ada@googlemail.com' })).toBe(true);
    expect(owned({ email: 'ada@school.example', hd: 'school.example' })).toBe(true);
    expect(owned({ email: 'ada@gmail.com.school.example' })).toBe(false);
    expect(owned({ email: 'ada@school.example', hd: '' })).toBe(false);
    expect(owned({ email: 'ada@gmail.com', email_verified: false })).toBe(false);
    expect(fromGoogle({ sub: '1234', email: 'a@b.example', email_verified: false })).toMatchObject({
      emailVerified: false,
      emailTrusted: false,
      linkableEmail: false,
    });
    expect(fromGoogle({ sub: '1', name: 'Grace Brewster Hopper' })).toMatchObject({
      first: 'Grace',
      last: 'Brewster Hopper',
      email: null,
    });
    expect(() => fromGoogle({ email: 'a@b.example' })).toThrow(UpstreamIdentityError);
  });

  it('Microsoft work/school: tid:oid is the key, email never links, personal tenant refused', () => {
    const id = fromMicrosoft('Microsoft', {
      tid: ORG_TENANT,
      oid: 'oid-1',
      sub: 'pairwise',
      email: 'T@School.example',
      name: 'Ter Ese',
    });
    expect(id).toEqual({
      provider: 'Microsoft',
      subject: `${ORG_TENANT}:oid-1`,
      email: 't@school.example',
      emailVerified: false,
      emailTrusted: false,
      linkableEmail: false,
      first: 'Ter',
      last: 'Ese',
      directory: { tenant: ORG_TENANT },
    });
    expect(() => fromMicrosoft('Microsoft', { tid: MICROSOFT_PERSONAL_TENANT, oid: 'x' })).toThrow(
      /personal/,
    );
    expect(() => fromMicrosoft('Microsoft', { tid: ORG_TENANT, oid: 'x' }, ['another-tenant'])).toThrow(
      /not allowed/,
    );
    expect(() => fromMicrosoft('Microsoft', { oid: 'x' })).toThrow(/tenant/);
    // students without a mailbox: the UPN stands in for display only
    expect(
      fromMicrosoft('Microsoft', { tid: ORG_TENANT, oid: 'x', preferred_username: 'kid@district.example' })
        .email,
    ).toBe('kid@district.example');
  });

  it('Microsoft personal: only the consumer tenant', () => {
    expect(fromMicrosoft('MicrosoftPersonal', { tid: MICROSOFT_PERSONAL_TENANT, sub: 's' }).subject).toBe(
      `${MICROSOFT_PERSONAL_TENANT}:s`,
    );
    expect(() => fromMicrosoft('MicrosoftPersonal', { tid: ORG_TENANT, oid: 'x' })).toThrow(/work or school/);
  });

  it('Apple: string booleans, name from the form-posted user JSON; links only where Apple owns the address', () => {
    const id = fromApple(
      { sub: '001.abc.002', email: 'x@privaterelay.appleid.com', email_verified: 'true' },
      '{"name":{"firstName":"Tim","lastName":"Apple"}}',
    );
    expect(id).toEqual({
      provider: 'SignInWithApple',
      subject: '001.abc.002',
      email: 'x@privaterelay.appleid.com',
      emailVerified: true,
      emailTrusted: true,
      linkableEmail: true,
      first: 'Tim',
      last: 'Apple',
      directory: {},
    });
    expect(fromApple({ sub: 's', email: 'x@y.example', email_verified: 'false' }, 'not json')).toMatchObject({
      emailVerified: false,
      emailTrusted: false,
      linkableEmail: false,
      first: '',
    });
    const apple = (email: string) => fromApple({ sub: 's', email, email_verified: 'true' }, undefined);
    expect(apple('tim@icloud.com')).toMatchObject({ emailTrusted: true, linkableEmail: true });
    expect(apple('tim@me.com').linkableEmail).toBe(true);
    expect(apple('tim@mac.com').linkableEmail).toBe(true);
    expect(apple('tim@school.example')).toMatchObject({ emailTrusted: true, linkableEmail: false });
  });

  it('Clever: the user id is the key, email never links; district, schools and roles (OIDC and API shapes)', () => {
    expect(
      fromCleverOidc({
        sub: 's',
        multi_role_user_id: 'mr-1',
        email: 'c@d.example',
        email_verified: false,
        given_name: 'C',
        user_type: 'Student',
        district_id: 'd-1',
        schools: ['s-1'],
      }),
    ).toMatchObject({
      subject: 'mr-1',
      emailVerified: false,
      emailTrusted: false,
      linkableEmail: false,
      first: 'C',
      directory: { district: 'd-1', schools: ['s-1'], roles: ['student'] },
    });
    const api = fromCleverApi(
      { data: { id: 'u-1', district: 'd-1' } },
      {
        data: {
          email: 'c@d.example',
          name: { first: 'Cl', last: 'Ever' },
          roles: {
            teacher: { school: 's-1', schools: ['s-1', 's-2'] },
            staff: { schools: ['s-3'] },
          },
        },
      },
    );
    expect(api).toEqual({
      provider: 'Clever',
      subject: 'u-1',
      email: 'c@d.example',
      emailVerified: false,
      emailTrusted: false,
      linkableEmail: false,
      first: 'Cl',
      last: 'Ever',
      directory: { district: 'd-1', schools: ['s-1', 's-2', 's-3'], roles: ['teacher', 'staff'] },
    });
    expect(fromCleverApi({ data: { id: 'u-2' } }, undefined).directory).toEqual({});
    expect(() => fromCleverApi({ data: {} }, undefined)).toThrow(UpstreamIdentityError);
  });

  it('ClassLink: TenantId:UserId (API) or tenant:sub (OIDC), email never links, empty email allowed', () => {
    expect(
      fromClassLinkInfo({
        TenantId: 12,
        UserId: 345,
        FirstName: 'Class',
        LastName: 'Link',
        Email: '',
        Role: 'Student',
        BuildingId: 67,
        SourcedId: 'or-345',
      }),
    ).toEqual({
      provider: 'ClassLink',
      subject: '12:345',
      email: null,
      emailVerified: false,
      emailTrusted: false,
      linkableEmail: false,
      first: 'Class',
      last: 'Link',
      directory: { tenant: '12', schools: ['67'], roles: ['student'], rosterId: 'or-345' },
    });
    expect(
      fromClassLinkOidc({
        sub: '345',
        classLink_tenant_id: '12',
        email: 'e@f.example',
        email_verified: true,
        profile: 'Teacher',
      }),
    ).toMatchObject({
      subject: '12:345',
      emailVerified: true,
      linkableEmail: false,
      directory: { tenant: '12', roles: ['teacher'] },
    });
    expect(
      fromClassLinkOidc({ sub: '1', profile: 'https://launchpad.classlink.com/profile/1' }).directory,
    ).toEqual({});
  });

  it("a provider's name is cut to NAME_MAX_LENGTH between whole characters, whatever its length, for every provider", () => {
    const huge = 'A'.repeat(100_000);
    // 99 letters, then a character outside the BMP (a surrogate pair) that would end past the limit
    const astral = `${'b'.repeat(99)}\u{1D11E}tail`;
    // an accent typed as its own code point stays with its letter
    const accented = `${'c'.repeat(99)}e\u0301`;
    const kept = (name: { first: string; last: string }) => [name.first, name.last];
    expect(
      kept(fromCleverApi({ data: { id: 'u' } }, { data: { id: 'u', name: { first: huge, last: astral } } })),
    ).toEqual(['A'.repeat(NAME_MAX_LENGTH), 'b'.repeat(99)]);
    expect(kept(fromGoogle({ sub: 's', given_name: accented, family_name: 'Lee' }))).toEqual([
      'c'.repeat(99),
      'Lee',
    ]);
    expect(kept(fromClassLinkInfo({ TenantId: 1, UserId: 2, DisplayName: `${huge} ${huge}` }))).toEqual([
      'A'.repeat(NAME_MAX_LENGTH),
      'A'.repeat(NAME_MAX_LENGTH),
    ]);
    expect(
      kept(fromApple({ sub: 's' }, JSON.stringify({ name: { firstName: huge, lastName: 'x' } }))),
    ).toEqual(['A'.repeat(NAME_MAX_LENGTH), 'x']);
    // at the limit, nothing is cut
    expect(providerName('d'.repeat(NAME_MAX_LENGTH))).toBe('d'.repeat(NAME_MAX_LENGTH));
  });
});
