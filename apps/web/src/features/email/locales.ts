/** Namespace 'email': the continue-with-email page. */
export const en = {
  title: 'Continue with email',
  intro: 'Enter your email address. We will find the right next step for you.',
  email_label: 'Email',
  submit: 'Continue',
  sso_link: 'Continue with SSO',
};

export type EmailCatalog = Record<keyof typeof en, string>;

export const es: EmailCatalog = {
  title: 'Continuar con correo electrónico',
  intro: 'Escribe tu correo electrónico. Buscaremos el siguiente paso adecuado para ti.',
  email_label: 'Correo electrónico',
  submit: 'Continuar',
  sso_link: 'Continuar con SSO',
};

export const fr: EmailCatalog = {
  title: 'Continuer avec une adresse e-mail',
  intro: 'Saisissez votre adresse e-mail. Nous trouverons la bonne étape suivante pour vous.',
  email_label: 'E-mail',
  submit: 'Continuer',
  sso_link: 'Continuer avec le SSO',
};

export const pt: EmailCatalog = {
  title: 'Continuar com e-mail',
  intro: 'Digite seu endereço de e-mail. Vamos encontrar o próximo passo certo para você.',
  email_label: 'E-mail',
  submit: 'Continuar',
  sso_link: 'Continuar com SSO',
};

export const zh: EmailCatalog = {
  title: '使用电子邮箱继续',
  intro: '请输入您的电子邮箱地址，我们会为您找到下一步。',
  email_label: '电子邮箱',
  submit: '继续',
  sso_link: '使用 SSO 继续',
};

export const ar: EmailCatalog = {
  title: 'المتابعة بالبريد الإلكتروني',
  intro: 'أدخل بريدك الإلكتروني وسنحدد لك الخطوة التالية المناسبة.',
  email_label: 'البريد الإلكتروني',
  submit: 'متابعة',
  sso_link: 'المتابعة عبر SSO',
};

export const de: EmailCatalog = {
  title: 'Mit E-Mail fortfahren',
  intro: 'Geben Sie Ihre E-Mail-Adresse ein. Wir finden den passenden nächsten Schritt für Sie.',
  email_label: 'E-Mail',
  submit: 'Weiter',
  sso_link: 'Mit SSO fortfahren',
};
