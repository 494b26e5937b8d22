/** Namespace 'validate': the Verify Account page reached from the verification mail. */
export const en = {
  title: 'Verify Account',
  verifying: 'Checking your verification code…',
  continue: 'Continue to sign in',
};

export type ValidateCatalog = Record<keyof typeof en, string>;

export const es: ValidateCatalog = {
  title: 'Verificar cuenta',
  verifying: 'Comprobando tu código de verificación…',
  continue: 'Continuar para iniciar sesión',
};

export const fr: ValidateCatalog = {
  title: 'Vérifier le compte',
  verifying: 'Vérification de votre code…',
  continue: 'Continuer vers la connexion',
};

export const pt: ValidateCatalog = {
  title: 'Verificar conta',
  verifying: 'Verificando seu código…',
  continue: 'Continuar para entrar',
};

export const zh: ValidateCatalog = {
  title: '验证账户',
  verifying: '正在检查您的验证码…',
  continue: '继续登录',
};

export const ar: ValidateCatalog = {
  title: 'تأكيد الحساب',
  verifying: 'جارٍ التحقق من رمز التحقق…',
  continue: 'المتابعة لتسجيل الدخول',
};

export const de: ValidateCatalog = {
  title: 'Konto bestätigen',
  verifying: 'Ihr Bestätigungscode wird geprüft…',
  continue: 'Weiter zur Anmeldung',
};
