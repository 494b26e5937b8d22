import type { MailTexts } from './types.ts';

export const fr: MailTexts = {
  dir: 'ltr',
  greeting: (first) => (first ? `Bonjour ${first},` : 'Bonjour,'),
  verify: {
    subject: 'Vérifiez votre adresse e-mail',
    intro: 'Confirmez votre adresse e-mail pour terminer la création de votre compte.',
    codeLabel: 'Votre code de vérification est',
    action: 'Vérifier mon adresse',
    expiry: 'Le code est valable 24 heures.',
  },
  reset: {
    subject: 'Réinitialisez votre mot de passe',
    intro: 'Nous avons reçu une demande de réinitialisation du mot de passe de votre compte.',
    codeLabel: 'Votre code de réinitialisation est',
    action: 'Choisir un nouveau mot de passe',
    expiry: 'Le code est valable 1 heure.',
  },
  invite: {
    subject: (p) => `Vous êtes invité·e sur ${p}`,
    intro: (p) => `Vous avez été invité·e à créer un compte sur ${p}.`,
    action: 'Créer mon compte',
  },
  ignore: "Si vous n'êtes pas à l'origine de cette demande, ignorez cet e-mail.",
  signOff: (p) => `L'équipe ${p}`,
};
