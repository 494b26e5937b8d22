/** Namespace 'validate': the Verify Account page reached from the verification mail. */
export const en = {
  title: 'Verify Account',
  lead: 'Press Verify to confirm that {{email}} is your email address.',
  submit: 'Verify',
  new_password_needed:
    'You verified in a different browser or app from the one you signed up in, so the password chosen at sign-up is not kept: you will choose a new one when you sign in, with a code we mail you.',
  continue: 'Continue to sign in',
};

export type ValidateCatalog = Record<keyof typeof en, string>;

export const es: ValidateCatalog = {
  title: 'Verificar cuenta',
  lead: 'Pulsa Verificar para confirmar que {{email}} es tu dirección de correo.',
  submit: 'Verificar',
  new_password_needed:
    'Verificaste tu correo en un navegador o una aplicación diferentes de los que usaste para registrarte, así que la contraseña elegida al registrarte no se conserva: elegirás una nueva al iniciar sesión, con un código que te enviaremos por correo.',
  continue: 'Continuar para iniciar sesión',
};

export const fr: ValidateCatalog = {
  title: 'Vérifier le compte',
  lead: 'Appuyez sur Vérifier pour confirmer que {{email}} est votre adresse e-mail.',
  submit: 'Vérifier',
  new_password_needed:
    'Vous avez vérifié votre adresse dans un autre navigateur ou une autre application que ceux de votre inscription, donc le mot de passe choisi à l’inscription n’est pas conservé : vous en choisirez un nouveau en vous connectant, avec un code envoyé par e-mail.',
  continue: 'Continuer vers la connexion',
};

export const pt: ValidateCatalog = {
  title: 'Verificar conta',
  lead: 'Clique em Verificar para confirmar que {{email}} é o seu endereço de e-mail.',
  submit: 'Verificar',
  new_password_needed:
    'Você verificou seu e-mail em um navegador ou aplicativo diferente daquele em que se cadastrou, por isso a senha escolhida no cadastro não foi mantida: você escolherá uma nova ao entrar, com um código que enviaremos por e-mail.',
  continue: 'Continuar para entrar',
};

export const zh: ValidateCatalog = {
  title: '验证账户',
  lead: '按“验证”以确认 {{email}} 是您的电子邮件地址。',
  submit: '验证',
  new_password_needed:
    '您在与注册时不同的浏览器或应用中完成了验证，因此注册时设置的密码不会保留：登录时您将通过我们发送到邮箱的验证码设置新密码。',
  continue: '继续登录',
};

export const ar: ValidateCatalog = {
  title: 'تأكيد الحساب',
  lead: 'اضغط على زر «تحقّق» لتأكيد أن {{email}} هو عنوان بريدك الإلكتروني.',
  submit: 'تحقّق',
  new_password_needed:
    'لقد أكدت بريدك في متصفح أو تطبيق غير الذي أنشأت فيه حسابك، لذلك لم تُحفظ كلمة المرور التي اخترتها عند التسجيل: ستختار كلمة مرور جديدة عند تسجيل الدخول، برمز نرسله إليك بالبريد الإلكتروني.',
  continue: 'المتابعة لتسجيل الدخول',
};

export const de: ValidateCatalog = {
  title: 'Konto bestätigen',
  lead: 'Wählen Sie „Bestätigen“, um {{email}} als Ihre E-Mail-Adresse zu bestätigen.',
  submit: 'Bestätigen',
  new_password_needed:
    'Sie haben Ihre Adresse in einem anderen Browser oder einer anderen App bestätigt als bei der Registrierung. Das dort gewählte Passwort wird daher nicht übernommen: Sie wählen bei der Anmeldung ein neues, mit einem Code, den wir Ihnen per E-Mail senden.',
  continue: 'Weiter zur Anmeldung',
};
