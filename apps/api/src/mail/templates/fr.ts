import type { MailTexts } from './types.ts';

export const fr: MailTexts = {
  colon: '\u202f: ',
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
    expiry: (days) => `L'invitation est valable ${days} jours.`,
    ignore: "Si vous n'attendiez pas cette invitation, ignorez cet e-mail.",
  },
  locked: {
    subject: 'Votre compte a été verrouillé',
    intro:
      "Nous avons verrouillé votre compte après 100 tentatives de connexion échouées d'affilée. Si ce n'était pas vous, quelqu'un essaie peut-être de deviner votre mot de passe.",
    advice:
      'Le compte se déverrouille automatiquement sous 24 heures, ou votre administrateur peut le déverrouiller dès maintenant. Vous pourrez ensuite choisir un nouveau mot de passe.',
    action: 'Aller à la page de connexion',
  },
  ignore: "Si vous n'êtes pas à l'origine de cette demande, ignorez cet e-mail.",
  signOff: (p) => `L'équipe ${p}`,
};
