/** Namespace 'signIn': the built-in user pool password page (/sign-in/:uid). */
export const en = {
  title: 'Sign in with email',
  email_label: 'Email',
  password_label: 'Password',
  forgot: 'Forgot password?',
  submit: 'Sign in',
  verify_link: 'Verify your email',
  other_methods: 'Use another way to sign in',
  start_again: 'Start again',
};

export type SignInCatalog = Record<keyof typeof en, string>;

export const es: SignInCatalog = {
  title: 'Inicia sesión con correo electrónico',
  email_label: 'Correo electrónico',
  password_label: 'Contraseña',
  forgot: '¿Olvidaste tu contraseña?',
  submit: 'Iniciar sesión',
  verify_link: 'Verifica tu correo electrónico',
  other_methods: 'Usar otra forma de iniciar sesión',
  start_again: 'Volver a empezar',
};

export const fr: SignInCatalog = {
  title: 'Se connecter avec une adresse e-mail',
  email_label: 'E-mail',
  password_label: 'Mot de passe',
  forgot: 'Mot de passe oublié ?',
  submit: 'Se connecter',
  verify_link: 'Vérifiez votre adresse e-mail',
  other_methods: 'Utiliser un autre moyen de connexion',
  start_again: 'Recommencer',
};

export const pt: SignInCatalog = {
  title: 'Entrar com e-mail',
  email_label: 'E-mail',
  password_label: 'Senha',
  forgot: 'Esqueceu a senha?',
  submit: 'Entrar',
  verify_link: 'Verifique seu e-mail',
  other_methods: 'Usar outra forma de entrar',
  start_again: 'Começar novamente',
};

export const zh: SignInCatalog = {
  title: '使用电子邮箱登录',
  email_label: '电子邮箱',
  password_label: '密码',
  forgot: '忘记密码？',
  submit: '登录',
  verify_link: '验证您的电子邮箱',
  other_methods: '使用其他方式登录',
  start_again: '重新开始',
};

export const ar: SignInCatalog = {
  title: 'تسجيل الدخول بالبريد الإلكتروني',
  email_label: 'البريد الإلكتروني',
  password_label: 'كلمة المرور',
  forgot: 'هل نسيت كلمة المرور؟',
  submit: 'تسجيل الدخول',
  verify_link: 'تحقق من بريدك الإلكتروني',
  other_methods: 'استخدام طريقة أخرى لتسجيل الدخول',
  start_again: 'البدء من جديد',
};

export const de: SignInCatalog = {
  title: 'Mit E-Mail anmelden',
  email_label: 'E-Mail',
  password_label: 'Passwort',
  forgot: 'Passwort vergessen?',
  submit: 'Anmelden',
  verify_link: 'Bestätigen Sie Ihre E-Mail-Adresse',
  other_methods: 'Andere Anmeldemöglichkeit verwenden',
  start_again: 'Von vorn beginnen',
};
