/** Namespace 'validate': the Verify Account page reached from the verification mail. */
export const en = {
  title: 'Verify Account',
  lead: 'Press Verify to confirm that {{email}} is your email address.',
  submit: 'Verify',
  new_password_needed:
    'You verified on a different device from the one you signed up on, so the password chosen at sign-up is not kept: you will choose a new one when you sign in, with a code we mail you.',
  continue: 'Continue to sign in',
};

export type ValidateCatalog = Record<keyof typeof en, string>;

export const es: ValidateCatalog = {
  title: 'Verificar cuenta',
  lead: 'Pulsa Verificar para confirmar que {{email}} es tu dirección de correo.',
  submit: 'Verificar',
  new_password_needed:
    'La verificaste en otro dispositivo distinto del que usaste para registrarte, así que la contraseña elegida allí no se conserva: elige una nueva al iniciar sesión. Te enviaremos un código por correo.',
  continue: 'Continuar para iniciar sesión',
};

export const fr: ValidateCatalog = {
  title: 'Vérifier le compte',
  lead: 'Appuyez sur Vérifier pour confirmer que {{email}} est votre adresse e-mail.',
  submit: 'Vérifier',
  new_password_needed:
    'Vous l’avez vérifiée sur un autre appareil que celui de votre inscription : le mot de passe choisi là-bas n’est pas conservé. Choisissez-en un nouveau en vous connectant ; nous vous enverrons un code par e-mail.',
  continue: 'Continuer vers la connexion',
};

export const pt: ValidateCatalog = {
  title: 'Verificar conta',
  lead: 'Toque em Verificar para confirmar que {{email}} é o seu endereço de e-mail.',
  submit: 'Verificar',
  new_password_needed:
    'Você verificou em outro dispositivo, diferente daquele em que se cadastrou, por isso a senha escolhida lá não foi mantida: escolha uma nova ao entrar. Enviaremos um código por e-mail.',
  continue: 'Continuar para entrar',
};

export const zh: ValidateCatalog = {
  title: '验证账户',
  lead: '按“验证”以确认 {{email}} 是您的电子邮件地址。',
  submit: '验证',
  new_password_needed:
    '您在注册时所用设备以外的设备上完成了验证，因此在那里选择的密码不会保留：请在登录时设置新密码。我们会通过电子邮件向您发送验证码。',
  continue: '继续登录',
};

export const ar: ValidateCatalog = {
  title: 'تأكيد الحساب',
  lead: 'اضغط «تأكيد» لتأكيد أن {{email}} هو عنوان بريدك الإلكتروني.',
  submit: 'تأكيد',
  new_password_needed:
    'لقد أكدته على جهاز غير الجهاز الذي أنشأت عليه الحساب، لذلك لم تُحفظ كلمة المرور التي اخترتها هناك: اختر كلمة مرور جديدة عند تسجيل الدخول. سنرسل إليك رمزًا بالبريد الإلكتروني.',
  continue: 'المتابعة لتسجيل الدخول',
};

export const de: ValidateCatalog = {
  title: 'Konto bestätigen',
  lead: 'Tippen Sie auf „Bestätigen“, um zu bestätigen, dass {{email}} Ihre E-Mail-Adresse ist.',
  submit: 'Bestätigen',
  new_password_needed:
    'Sie haben sie auf einem anderen Gerät bestätigt als dem, auf dem Sie sich registriert haben. Das dort gewählte Passwort wird daher nicht übernommen: Wählen Sie bei der Anmeldung ein neues. Wir senden Ihnen dafür einen Code per E-Mail.',
  continue: 'Weiter zur Anmeldung',
};
