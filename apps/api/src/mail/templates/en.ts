import type { MailTexts } from './types.ts';

export const en: MailTexts = {
  dir: 'ltr',
  greeting: (first) => (first ? `Hello ${first},` : 'Hello,'),
  verify: {
    subject: 'Verify your email address',
    intro: 'Please confirm your email address to finish creating your account.',
    codeLabel: 'Your verification code is',
    action: 'Verify my email',
    expiry: 'The code is valid for 24 hours.',
  },
  reset: {
    subject: 'Reset your password',
    intro: 'We received a request to reset the password of your account.',
    codeLabel: 'Your password reset code is',
    action: 'Choose a new password',
    expiry: 'The code is valid for 1 hour.',
  },
  invite: {
    subject: (p) => `You are invited to ${p}`,
    intro: (p) => `You have been invited to create an account on ${p}.`,
    action: 'Create my account',
  },
  ignore: 'If you did not ask for this, you can ignore this email.',
  signOff: (p) => `The ${p} team`,
};
