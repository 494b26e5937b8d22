import type { MailTexts } from './types.ts';

export const de: MailTexts = {
  colon: ': ',
  dir: 'ltr',
  greeting: (first) => (first ? `Guten Tag ${first},` : 'Guten Tag,'),
  verify: {
    subject: 'Bestätigen Sie Ihre E-Mail-Adresse',
    intro: 'Bitte bestätigen Sie Ihre E-Mail-Adresse, um die Erstellung Ihres Kontos abzuschließen.',
    codeLabel: 'Ihr Bestätigungscode lautet',
    action: 'E-Mail-Adresse bestätigen',
    expiry: 'Der Code ist 24 Stunden lang gültig.',
  },
  reset: {
    subject: 'Setzen Sie Ihr Passwort zurück',
    intro: 'Wir haben eine Anfrage erhalten, das Passwort Ihres Kontos zurückzusetzen.',
    codeLabel: 'Ihr Code zum Zurücksetzen des Passworts lautet',
    action: 'Neues Passwort wählen',
    expiry: 'Der Code ist 1 Stunde lang gültig.',
  },
  invite: {
    subject: (p) => `Sie sind zu ${p} eingeladen`,
    intro: (p) => `Sie wurden eingeladen, ein Konto bei ${p} zu erstellen.`,
    action: 'Mein Konto erstellen',
    expiry: (days) => `Die Einladung ist ${days} Tage lang gültig.`,
    ignore: 'Falls Sie diese Einladung nicht erwartet haben, können Sie diese E-Mail ignorieren.',
  },
  locked: {
    subject: 'Ihr Konto wurde gesperrt',
    intro:
      'Wir haben Ihr Konto nach 100 fehlgeschlagenen Anmeldeversuchen in Folge gesperrt. Falls Sie das nicht waren, versucht möglicherweise jemand, Ihr Passwort zu erraten.',
    advice:
      'Das Konto wird innerhalb von 24 Stunden automatisch entsperrt, oder Ihr Administrator kann es sofort entsperren. Danach können Sie ein neues Passwort wählen.',
    action: 'Zur Anmeldung',
  },
  ignore: 'Falls Sie dies nicht angefordert haben, können Sie diese E-Mail ignorieren.',
  signOff: (p) => `Ihr ${p}-Team`,
};
