import { domainToASCII } from 'node:url';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  cleanName,
  containsPersonalWord,
  greaterThanZeroRule,
  isValidEmail,
  mailboxKey,
  normalizeDigits,
  normalizeDomain,
  normalizeEmail,
  passwordFlags,
  passwordRule,
  personalWords,
} from './rules.ts';
import { accessCodeSchema } from './schemas.ts';
import { ACCESS_CODE_LENGTH } from './constants.ts';

describe('password rule (§5)', () => {
  it('gives InvalidPassword for a null value', () => {
    expect(passwordRule(null)).toEqual({ InvalidPassword: true });
  });

  it('flags each failure separately', () => {
    expect(passwordRule('short')).toEqual({
      minLength: true,
      uppercaseMissing: true,
      digitMissing: true,
      specialCharacterMissing: true,
    });
    expect(passwordRule('ALLUPPERCASE1!')).toEqual({ lowercaseMissing: true });
    expect(passwordRule('alllowercase1!')).toEqual({ uppercaseMissing: true });
    expect(passwordRule('NoDigitsHere!!')).toEqual({ digitMissing: true });
    expect(passwordRule('NoSpecials1234')).toEqual({ specialCharacterMissing: true });
  });

  it('needs at least 12 characters (minLength)', () => {
    expect(passwordRule('Abcdefgh1!x')).toEqual({ minLength: true });
    expect(passwordRule('Abcdefgh1!xy')).toBeNull();
  });

  it('counts characters, not UTF-16 units: an emoji is one character', () => {
    // 11 characters in 12 UTF-16 units
    expect(passwordRule('Zqxwvb7!Kp😀')).toEqual({ minLength: true });
    expect(passwordRule('Zqxwvb7!Kp😀x')).toBeNull();
    expect(passwordRule('Ab1!😀😀😀😀😀😀😀😀')).toBeNull();
  });

  it('judges a password composed (NFC), as it is hashed: e and a combining accent are one character, typed either way', () => {
    // 11 characters, 13 code points decomposed
    const composed = 'Caf\u00e9-Cr\u00e8me1';
    const decomposed = composed.normalize('NFD');
    expect([...decomposed].length).toBe(13);
    expect(passwordRule(composed)).toEqual({ minLength: true });
    expect(passwordRule(decomposed)).toEqual({ minLength: true });
    expect(passwordRule(`${decomposed}2`)).toBeNull();
    expect(containsPersonalWord(decomposed, { email: 'x@y.org', last: 'Cr\u00e8me' })).toBe(true);
    expect(containsPersonalWord(composed, { email: 'x@y.org', last: 'Cre\u0300me' })).toBe(true);
  });

  it('counts the underscore as a special character', () => {
    expect(passwordRule('Abcdefghij1_')).toBeNull();
  });

  it('is valid exactly when no flag is raised', () => {
    fc.assert(
      // built from single code points of the whole of Unicode, so the length is theirs, not the string's
      // units (integers, not fc.string's binary unit, whose first use costs seconds)
      fc.property(
        fc.array(
          fc.integer({ min: 0, max: 0x10ffff }).map((c) => String.fromCodePoint(c)),
          { maxLength: 40 },
        ),
        (chars) => {
          const pw = chars.join('');
          const flags = passwordFlags(pw);
          // judged composed, as it is hashed: a combining mark may join the character before it
          const nfc = pw.normalize('NFC');
          const expected =
            [...nfc].length >= 12 &&
            /[A-Z]/.test(nfc) &&
            /[a-z]/.test(nfc) &&
            /\d/.test(nfc) &&
            /[\W_]/.test(nfc);
          expect(flags.length === 0).toBe(expected);
          expect(passwordRule(pw) === null).toBe(expected);
        },
      ),
    );
  });
});

describe("personal words: a password may not contain its owner's name or email", () => {
  const ana = { email: 'Ana.Lima-Souza42@mail.Riverside-School.org', first: ' Anabel ', last: "D'Almeida" };

  it('takes the local part, the domain labels and the names, whole and split at non-letters', () => {
    expect(personalWords(ana).sort()).toEqual(
      [
        'ana.lima-souza42',
        'lima',
        'souza',
        'mail',
        'riverside-school',
        'riverside',
        'school',
        'anabel',
        "d'almeida",
        'almeida',
      ].sort(),
    );
  });

  it('ignores words shorter than 4 characters and the top-level domain', () => {
    expect(personalWords({ email: 'al@kim.com', first: 'Al', last: 'Lee' })).toEqual([]);
    expect(personalWords({ email: 'jo@info.info' })).toEqual(['info']);
  });

  it("takes an international domain's labels as typed as well as in their stored xn-- form", () => {
    const owner = { email: 'anna@Schule-München.de' };
    expect(containsPersonalWord('münchen-2024!X', owner)).toBe(true);
    expect(containsPersonalWord('xn--schule-mnchen-3ob!', owner)).toBe(true);
  });

  it('refuses a password containing one of them, in any letter case', () => {
    expect(containsPersonalWord('Welcome-ALMEIDA-7', ana)).toBe(true);
    expect(containsPersonalWord('9-RiverSide-Blue!', ana)).toBe(true);
    expect(containsPersonalWord('Souza!Sunrise-24', ana)).toBe(true);
    expect(containsPersonalWord('Correct-Horse-9-Battery', ana)).toBe(false);
    // 'Al' and 'Lee' are too short to refuse: 'Sleeping' and 'Alpine' stay allowed
    expect(containsPersonalWord('Sleeping-Alpine-42', { email: 'al@x.org', first: 'Al', last: 'Lee' })).toBe(
      false,
    );
  });

  it('works with the email alone (the reset page knows no names)', () => {
    expect(containsPersonalWord('Teacher-Rocks-42!', { email: 'teacher@school.org' })).toBe(true);
  });
});

describe('greater-than-zero rule (§5)', () => {
  it('gives ValueIsNull for null', () => {
    expect(greaterThanZeroRule(null)).toEqual({ ValueIsNull: true });
  });
  it('gives NotGTZero when the value truncates to less than 1', () => {
    expect(greaterThanZeroRule(0.99)).toEqual({ NotGTZero: true });
    expect(greaterThanZeroRule(-5)).toEqual({ NotGTZero: true });
    expect(greaterThanZeroRule('abc')).toEqual({ NotGTZero: true });
  });
  it('passes values that truncate to 1 or more', () => {
    expect(greaterThanZeroRule(1.5)).toBeNull();
    expect(greaterThanZeroRule('3')).toBeNull();
  });
});

describe('email and access code rules (§5)', () => {
  it('checks a simple pattern after trimming', () => {
    expect(isValidEmail('  teacher@school.org  ')).toBe(true);
    expect(isValidEmail('teacher@school')).toBe(false);
    expect(isValidEmail('not an email@x.org')).toBe(false);
  });
  it("takes the addresses schools hand out: apostrophes, plus tags, another script's letters", () => {
    // dots anywhere in the local part: some carriers hand out a..b@ and a.@
    for (const email of [
      "o'brien@school.org",
      'a.b+maths@x.co.uk',
      'ünï@école.example',
      'a@x.o',
      'a..b.@x.jp',
    ])
      expect(isValidEmail(email), email).toBe(true);
  });
  it('refuses what a mail library would read as another address, or as several', () => {
    // each of these once made its own account whose mail went to victim@school.example
    const lists = ['victim@school.example>', 'a<victim@school.example>', 'a,victim@school.example'];
    const more = ['x;victim@school.example', 'victim@school.example,', 'a(c)victim@school.example'];
    // a lone surrogate is stored as U+FFFD: the account would hold another address than the one answered
    const odd = ['"q"victim@x.org', 'a\u202e@x.org', 'a\u200b@x.org', 'fz1\ud800@x.org'];
    const domains = ['a@0x7f.1', 'a@1.2.3.4', 'a@x_y.org', 'a@x..org', 'a@.x.org'];
    for (const email of [...lists, ...more, ...odd, ...domains])
      expect(isValidEmail(email), email).toBe(false);
  });
  it('normalises one address to one spelling: lower case, composed, the domain as it is mailed', () => {
    expect(normalizeEmail(' Teacher@School.ORG ')).toBe('teacher@school.org');
    expect(normalizeEmail('Zoe\u0308@Bücher.example')).toBe('zo\u00eb@xn--bcher-kva.example');
  });
  it('access codes are exactly 6 characters', () => {
    expect(ACCESS_CODE_LENGTH).toBe(6);
    expect(accessCodeSchema.safeParse('123456').success).toBe(true);
    // mailed codes became 8 digits; access codes did not
    expect(accessCodeSchema.safeParse('12345678').error?.issues[0]?.message).toBe('accessCodeLength');
    expect(accessCodeSchema.safeParse('12345').error?.issues[0]?.message).toBe('accessCodeLength');
    expect(accessCodeSchema.safeParse('1234567').error?.issues[0]?.message).toBe('accessCodeLength');
  });
});

describe('one inbox, one spelling: the domain in its IDNA ASCII form, as nodemailer sends to it', () => {
  // each of these was an account of its own, every mail of which went to victim@school.org
  const lookAlikes = [
    'victim@ｓchool.org', // full-width s
    'victim@school\uFE00.org', // a variation selector
    'victim@school\uFE01.org',
    'victim@school\uFE00\uFE01.org',
    'victim@sch\u034Fool.org', // the combining grapheme joiner
    'victim@ſchool.org', // the long s
    'victim@school.ｏrg',
    'victim@SCHOOL.ORG',
    ' victim@ＳＣＨＯＯＬ.org ',
  ];

  it('gives every look-alike of a domain the one address the mail goes to', () => {
    for (const email of lookAlikes) {
      expect(isValidEmail(email), email).toBe(true);
      expect(normalizeEmail(email), email).toBe('victim@school.org');
    }
  });

  it("gives a local part typed in an IME's full-width mode the account of its ASCII form, and folds nothing else", () => {
    for (const email of [
      'ｓｔｕｄｅｎｔ@demo.example',
      'ＳＴＵＤＥＮＴ@ｄｅｍｏ.example',
      'ｓtudent@demo.example',
    ])
      expect(normalizeEmail(email), email).toBe('student@demo.example');
    expect(normalizeEmail('ｔａｒｏ．ｙａｍａｄａ＿１＋ｘ@school.org')).toBe('taro.yamada_1+x@school.org');
    // what NFKC would also fold stays: a ligature, a circled digit, half-width katakana, an ideographic full stop
    expect(normalizeEmail('\uFB01\u2460\uFF76\u3002@x.org')).toBe('\uFB01\u2460\uFF76\u3002@x.org');
    // folded to what the pattern refuses (a comment, a list): kept full-width, as accounts made with it
    // before the fold were spelled (migration 020 leaves them), so they still sign in
    for (const email of ['ａ（ｂ）@x.org', 'ａ，ｂ@x.org', 'ａ＂ｂ＂@x.org', 'ａ＠ｂ@x.org']) {
      expect(isValidEmail(email), email).toBe(true);
      expect(normalizeEmail(email.toUpperCase()), email).toBe(email);
    }
  });

  it('spells an international domain in its xn-- form, however it was typed', () => {
    for (const email of [
      'a@bücher.de',
      'a@xn--bcher-kva.de',
      'A@XN--BCHER-KVA.DE',
      'a@BÜCHER.de',
      'a@bu\u0308cher.de',
    ])
      expect(normalizeEmail(email), email).toBe('a@xn--bcher-kva.de');
    expect(normalizeEmail('ünï@École.example')).toBe('ünï@xn--cole-9oa.example');
  });

  it("maps the domain's letter case as the mailer does, not as toLowerCase does", () => {
    // toLowerCase makes a word-final Σ a ς (another domain); UTS46 makes it σ
    for (const email of ['a@ΑΣ.gr', 'a@STRA\u1E9EE.de']) {
      const domain = email.slice(2);
      expect(normalizeEmail(email), email).toBe(`a@${domainToASCII(domain)}`);
    }
    expect(normalizeEmail('a@ΑΣ.gr')).not.toBe(`a@${domainToASCII('ας.gr')}`);
  });

  it('refuses an xn-- label that does not decode, on the server (Firefox refuses it too, Chromium leaves it to the server)', () => {
    for (const email of ['a@xn--zz.org', 'a@xn--a.org', 'a@xn--.org', 'a@xn--u-ccb.de', 'a@b.xn--ü.de']) {
      expect(isValidEmail(email), email).toBe(false);
    }
    // a refused address keeps the spelling of old, so an account made before the rule is still found
    expect(normalizeEmail(' A@Xn--ZZ.org ')).toBe('a@xn--zz.org');
  });

  it('refuses a domain the host parser refuses or maps to what is no domain', () => {
    // a label that starts with a combining mark, a label of ignorable characters only, Hebrew beside
    // Latin in one label (bidi rule), a parenthesised digit that maps to `(1)`
    const refused = ['a@\u0301x.org', 'a@x.\u034F.org', 'a@\u05d0a.org', 'a@x⑴.org'];
    for (const email of refused) expect(isValidEmail(email), email).toBe(false);
    expect(normalizeEmail('Zoe\u0308@x⑴.org')).toBe('zo\u00eb@x⑴.org');
    // what the parser would cut at a slash or a hash is refused before it reads it
    for (const email of ['a@x.org/y.org', 'a@evil.org#x.org', 'a@x.org:25', 'a@x.org?y'])
      expect(isValidEmail(email), email).toBe(false);
  });

  it('refuses an address whose mailed spelling is longer than an address may be', () => {
    // twelve Han characters a label, each label some forty characters in its xn-- form
    const label = Array.from({ length: 12 }, (_, i) => String.fromCodePoint(0x4e00 + i * 997)).join('');
    const typed = `a@${Array(7).fill(label).join('.')}.de`;
    expect(typed.length).toBeLessThan(100);
    expect(isValidEmail(typed)).toBe(false);
    expect(isValidEmail(`a@${Array(5).fill(label).join('.')}.de`)).toBe(true);
  });

  it('spells a domain on its own as an address spells it (realm overrides)', () => {
    expect(normalizeDomain(' Bücher.DE ')).toBe('xn--bcher-kva.de');
    expect(normalizeDomain('ｓchool\uFE00.org')).toBe('school.org');
    expect(normalizeDomain('Sch\u00fcle-Mu\u0308llheim.de')).toBe(
      normalizeEmail('a@schüle-müllheim.de').slice(2),
    );
    expect(normalizeDomain('X⑴.org')).toBe('x⑴.org');
  });

  it('gives a spelling with an ASCII domain that is its own spelling (the API may normalise what the SPA normalised)', () => {
    const unit = fc.constantFrom(
      ...'aZ.-@ü\u0308ſＳｓ\u034F\uFE00\u00ADΣßẞ＠（．'.split(''),
      'xn--',
      'bücher',
      '.org',
    );
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 16 }), (typed) => {
        if (!isValidEmail(typed)) return;
        const email = normalizeEmail(typed);
        expect(email.slice(email.lastIndexOf('@') + 1)).toMatch(/^[\x21-\x7e]+$/);
        expect(isValidEmail(email)).toBe(true);
        expect(normalizeEmail(email)).toBe(email);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('mailboxKey: the inbox that the limits on mail to one person count', () => {
  // a local part without the characters the key drops (`+`, and dots for Gmail)
  const base = fc.stringMatching(/^[a-z0-9][a-z0-9_-]{0,15}$/);
  const tag = fc.stringMatching(/^[a-z0-9.+_-]{0,12}$/);
  const domain = fc.constantFrom('school.org', 'mail.school.example', 'xn--bcher-kva.de', 'gmail.com');
  /** `local` with a dot before each character picked: Gmail delivers every such address to one inbox. */
  const dotted = (local: string, picks: boolean[]) =>
    [...local].map((char, i) => (i > 0 && picks[i] ? `.${char}` : char)).join('');

  it('is the address without its +tag, in any case, for every domain', () => {
    fc.assert(
      fc.property(base, tag, domain, fc.boolean(), (local, t, d, upper) => {
        const tagged = `${local}+${t}@${d}`;
        expect(mailboxKey(upper ? tagged.toUpperCase() : tagged)).toBe(mailboxKey(`${local}@${d}`));
      }),
    );
  });

  it("drops a Gmail address's dots, and spells googlemail.com as gmail.com", () => {
    fc.assert(
      fc.property(base, tag, fc.array(fc.boolean(), { maxLength: 16 }), (local, t, picks) => {
        const key = `${local}@gmail.com`;
        expect(mailboxKey(`${dotted(local, picks)}@gmail.com`)).toBe(key);
        expect(mailboxKey(`${dotted(local, picks)}+${t}@GoogleMail.com`)).toBe(key);
      }),
    );
  });

  it('keeps apart what other domains deliver apart: other local parts, their dots, other domains', () => {
    fc.assert(
      fc.property(base, base, domain, (a, b, d) => {
        fc.pre(a !== b);
        expect(mailboxKey(`${a}@${d}`)).not.toBe(mailboxKey(`${b}@${d}`));
        expect(mailboxKey(`${a}@${d}`)).not.toBe(mailboxKey(`${a}@other.example`));
      }),
    );
    expect(mailboxKey('v.ictim@school.org')).not.toBe(mailboxKey('victim@school.org'));
  });

  it('is a spelling of its own key: the key of a key is itself', () => {
    fc.assert(
      fc.property(base, tag, domain, fc.array(fc.boolean(), { maxLength: 16 }), (local, t, d, picks) => {
        const key = mailboxKey(`${dotted(local, picks)}+${t}@${d}`);
        expect(mailboxKey(key)).toBe(key);
      }),
    );
    expect(mailboxKey('Victim+p1@ｓchool.org')).toBe('victim@school.org');
  });
});

describe('cleanName', () => {
  it('keeps a name a mail can greet by: controls, line breaks and bidi controls as a space, trimmed', () => {
    // a typed name once wrote lines of its own into a reset mail, and U+202E reversed an Arabic greeting
    expect(cleanName('Ana\r\nBcc: x@y.z\r\n\r\nYour code is: 000000')).toBe(
      'Ana Bcc: x@y.z Your code is: 000000',
    );
    expect(cleanName('\u202eanA\u202c ')).toBe('anA');
    expect(cleanName('An\u202ea')).toBe('An a');
    expect(cleanName('Ana\u2028Bea\u2029Cy')).toBe('Ana Bea Cy');
    // joiners stay: Persian and Indic names need them
    expect(cleanName('\u0645\u200c\u06cc')).toBe('\u0645\u200c\u06cc');
    expect(cleanName(' Zoë Nguyễn ')).toBe('Zoë Nguyễn');
  });
});

describe('normalizeDigits (codes typed in any script)', () => {
  // ICU's numbering systems whose ten digits are Unicode decimal digits (arab, arabext, deva, fullwide,
  // mathbold, …): an oracle independent of the function's own reasoning about code points
  const DECIMAL_DIGIT = /^\p{Nd}$/u;
  const digitsOf = (system: string) => [
    ...new Intl.NumberFormat(`en-u-nu-${system}`, { useGrouping: false }).format(1234567890),
  ];
  const decimalSystems = Intl.supportedValuesOf('numberingSystem').filter((system) =>
    digitsOf(system).every((digit) => DECIMAL_DIGIT.test(digit)),
  );

  it('knows the scripts of the finding', () => {
    expect(decimalSystems).toEqual(
      expect.arrayContaining(['arab', 'arabext', 'deva', 'fullwide', 'mathbold']),
    );
    expect(normalizeDigits('١٢٣٤٥٦')).toBe('123456');
    expect(normalizeDigits('۰۱۲۳۴۵۶۷۸۹')).toBe('0123456789');
    expect(normalizeDigits('𝟎𝟗𝟘𝟡𝟬𝟵')).toBe('090909');
  });

  it('turns every string of decimal digits into the ASCII digits of the same values', () => {
    const digit = fc.record({
      system: fc.constantFrom(...decimalSystems),
      value: fc.integer({ min: 0, max: 9 }),
    });
    fc.assert(
      fc.property(fc.array(digit, { maxLength: 12 }), (digits) => {
        const typed = digits.map(({ system, value }) => digitsOf(system)[(value + 9) % 10]).join('');
        expect(normalizeDigits(typed)).toBe(digits.map(({ value }) => value).join(''));
      }),
    );
  });

  it('leaves everything that is not a decimal digit as it was', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        const kept = [...text].filter((char) => !DECIMAL_DIGIT.test(char)).join('');
        expect([...normalizeDigits(text)].filter((char) => !/^[0-9]$/.test(char)).join('')).toBe(kept);
      }),
    );
  });
});
