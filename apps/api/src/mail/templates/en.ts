import type { MailTexts } from './types.ts';

export const en: MailTexts = {
  colon: ': ',
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
    expiry: (days) => `The invitation is valid for ${days} days.`,
    ignore: 'If you were not expecting this invitation, you can ignore this email.',
  },
  locked: {
    subject: 'Your account has been locked',
    intro:
      'We locked your account after 100 failed sign-in attempts in a row. If this was not you, someone may be trying to guess your password.',
    advice:
      'The account unlocks by itself within 24 hours, or your administrator can unlock it now. After that, you can choose a new password.',
    action: 'Go to sign-in',
  },
  ignore: 'If you did not ask for this, you can ignore this email.',
  signOff: (p) => `The ${p} team`,
};
