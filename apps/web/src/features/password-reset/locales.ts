/** Namespace 'passwordReset': the forgot-password code page and the reset page. */
export const en = {
  title: 'Reset your password',
  intro: 'Choose a new password for {{email}}.',
  password_label: 'New password',
  confirm_label: 'Confirm new password',
  submit: 'Reset password',
  forgot_title: 'Check your email',
  forgot_body: 'We sent a code to {{email}}. Enter the code to choose a new password.',
  code_label: 'Reset code',
  forgot_submit: 'Continue',
  resend_prompt: "Didn't get the email?",
  reset_done_sign_in: 'Your password has been changed. Sign in with it',
};

export type PasswordResetCatalog = Record<keyof typeof en, string>;

export const es: PasswordResetCatalog = {
  title: 'Restablece tu contraseña',
  intro: 'Elige una contraseña nueva para {{email}}.',
  password_label: 'Contraseña nueva',
  confirm_label: 'Confirmar contraseña nueva',
  submit: 'Restablecer contraseña',
  forgot_title: 'Revisa tu correo',
  forgot_body: 'Enviamos un código a {{email}}. Escríbelo para elegir una contraseña nueva.',
  code_label: 'Código de restablecimiento',
  forgot_submit: 'Continuar',
  resend_prompt: '¿No recibiste el correo?',
  reset_done_sign_in: 'Tu contraseña se cambió. Inicia sesión con ella',
};

export const fr: PasswordResetCatalog = {
  title: 'Réinitialisez votre mot de passe',
  intro: 'Choisissez un nouveau mot de passe pour {{email}}.',
  password_label: 'Nouveau mot de passe',
  confirm_label: 'Confirmer le nouveau mot de passe',
  submit: 'Réinitialiser le mot de passe',
  forgot_title: 'Consultez vos e-mails',
  forgot_body: 'Nous avons envoyé un code à {{email}}. Saisissez-le pour choisir un nouveau mot de passe.',
  code_label: 'Code de réinitialisation',
  forgot_submit: 'Continuer',
  resend_prompt: 'Vous n’avez pas reçu l’e-mail ?',
  reset_done_sign_in: 'Votre mot de passe a été modifié. Connectez-vous avec',
};

export const pt: PasswordResetCatalog = {
  title: 'Redefina sua senha',
  intro: 'Escolha uma nova senha para {{email}}.',
  password_label: 'Nova senha',
  confirm_label: 'Confirmar nova senha',
  submit: 'Redefinir senha',
  forgot_title: 'Verifique seu e-mail',
  forgot_body: 'Enviamos um código para {{email}}. Digite-o para escolher uma nova senha.',
  code_label: 'Código de redefinição',
  forgot_submit: 'Continuar',
  resend_prompt: 'Não recebeu o e-mail?',
  reset_done_sign_in: 'Sua senha foi alterada. Entre com ela',
};

export const zh: PasswordResetCatalog = {
  title: '重置密码',
  intro: '为 {{email}} 设置新密码。',
  password_label: '新密码',
  confirm_label: '确认新密码',
  submit: '重置密码',
  forgot_title: '请查收邮件',
  forgot_body: '我们已向 {{email}} 发送验证码。输入验证码即可设置新密码。',
  code_label: '重置验证码',
  forgot_submit: '继续',
  resend_prompt: '没有收到邮件？',
  reset_done_sign_in: '密码已更改。请用新密码登录',
};

export const ar: PasswordResetCatalog = {
  title: 'إعادة تعيين كلمة المرور',
  intro: 'اختر كلمة مرور جديدة للحساب {{email}}.',
  password_label: 'كلمة المرور الجديدة',
  confirm_label: 'تأكيد كلمة المرور الجديدة',
  submit: 'إعادة تعيين كلمة المرور',
  forgot_title: 'تحقق من بريدك',
  forgot_body: 'أرسلنا رمزًا إلى {{email}}. أدخل الرمز لاختيار كلمة مرور جديدة.',
  code_label: 'رمز إعادة التعيين',
  forgot_submit: 'متابعة',
  resend_prompt: 'لم تصلك الرسالة؟',
  reset_done_sign_in: 'تم تغيير كلمة المرور. سجّل الدخول بها',
};

export const de: PasswordResetCatalog = {
  title: 'Setzen Sie Ihr Passwort zurück',
  intro: 'Wählen Sie ein neues Passwort für {{email}}.',
  password_label: 'Neues Passwort',
  confirm_label: 'Neues Passwort bestätigen',
  submit: 'Passwort zurücksetzen',
  forgot_title: 'Prüfen Sie Ihr E-Mail-Postfach',
  forgot_body:
    'Wir haben einen Code an {{email}} gesendet. Geben Sie den Code ein, um ein neues Passwort zu wählen.',
  code_label: 'Code zum Zurücksetzen',
  forgot_submit: 'Weiter',
  resend_prompt: 'Keine E-Mail erhalten?',
  reset_done_sign_in: 'Ihr Passwort wurde geändert. Melden Sie sich damit an',
};
