/** Namespace 'accessCode': the classroom access-code page. */
export const en = {
  title: 'Enter your class code',
  intro: 'Type the 6-digit access code your teacher gave you, then press Continue.',
  code_label: 'Access code',
  submit: 'Continue',
  no_login_params: 'Open the sign-in link your teacher gave you, then enter the code here.',
  other_options: 'Other ways to sign in',
};

export type AccessCodeCatalog = Record<keyof typeof en, string>;

export const es: AccessCodeCatalog = {
  title: 'Escribe el código de tu clase',
  intro: 'Escribe el código de acceso de 6 dígitos que te dio tu docente y pulsa Continuar.',
  code_label: 'Código de acceso',
  submit: 'Continuar',
  no_login_params: 'Abre el enlace de inicio de sesión que te dio tu docente y luego escribe el código aquí.',
  other_options: 'Otras formas de iniciar sesión',
};

export const fr: AccessCodeCatalog = {
  title: 'Saisissez votre code de classe',
  intro: 'Tapez le code d’accès à 6 chiffres donné par votre enseignant, puis appuyez sur Continuer.',
  code_label: 'Code d’accès',
  submit: 'Continuer',
  no_login_params: 'Ouvrez le lien de connexion donné par votre enseignant, puis saisissez le code ici.',
  other_options: 'Autres façons de se connecter',
};

export const pt: AccessCodeCatalog = {
  title: 'Digite o código da sua turma',
  intro: 'Digite o código de acesso de 6 dígitos que seu professor passou e toque em Continuar.',
  code_label: 'Código de acesso',
  submit: 'Continuar',
  no_login_params: 'Abra o link de login que seu professor passou e depois digite o código aqui.',
  other_options: 'Outras formas de entrar',
};

export const zh: AccessCodeCatalog = {
  title: '输入班级代码',
  intro: '输入老师给您的 6 位访问码，然后点击“继续”。',
  code_label: '访问代码',
  submit: '继续',
  no_login_params: '请先打开老师提供的登录链接，然后在此输入代码。',
  other_options: '其他登录方式',
};

export const ar: AccessCodeCatalog = {
  title: 'أدخل رمز الصف',
  intro: 'اكتب رمز الوصول المكوّن من 6 أرقام الذي أعطاك إياه معلّمك، ثم اضغط متابعة.',
  code_label: 'رمز الدخول',
  submit: 'متابعة',
  no_login_params: 'افتح رابط تسجيل الدخول الذي أعطاك إياه معلّمك، ثم أدخل الرمز هنا.',
  other_options: 'طرق أخرى لتسجيل الدخول',
};

export const de: AccessCodeCatalog = {
  title: 'Geben Sie Ihren Klassencode ein',
  intro:
    'Geben Sie den 6-stelligen Zugangscode ein, den Sie von Ihrer Lehrkraft erhalten haben, und klicken Sie dann auf „Weiter“.',
  code_label: 'Zugangscode',
  submit: 'Weiter',
  no_login_params:
    'Öffnen Sie den Anmeldelink, den Sie von Ihrer Lehrkraft erhalten haben, und geben Sie dann hier den Code ein.',
  other_options: 'Andere Anmeldemöglichkeiten',
};
