/** Namespace 'verification': send-verification-code and code pages. */
export const en = {
  send_title: 'Your email is not verified yet',
  send_body: 'The email address {{email}} must be verified before you can sign in.',
  send_submit: 'Send verification code',
  cancel: 'Cancel',
  popup_title: 'Check your email',
  popup_ok: 'OK',
  code_title: 'Verify your email',
  code_body: 'We sent a 6-digit code to {{email}}. Enter it below.',
  code_label: 'Verification code',
  code_submit: 'Verify',
  resend_prompt: "Didn't get the email?",
  resend_sent: 'A new code is on its way. Please check your inbox.',
  verified_sign_in: 'Your email is verified. Sign in',
};

export type VerificationCatalog = Record<keyof typeof en, string>;

export const es: VerificationCatalog = {
  send_title: 'Tu correo aún no está verificado',
  send_body: 'Debes verificar la dirección {{email}} antes de iniciar sesión.',
  send_submit: 'Enviar código de verificación',
  cancel: 'Cancelar',
  popup_title: 'Revisa tu correo',
  popup_ok: 'Aceptar',
  code_title: 'Verifica tu correo electrónico',
  code_body: 'Enviamos un código de 6 dígitos a {{email}}. Escríbelo abajo.',
  code_label: 'Código de verificación',
  code_submit: 'Verificar',
  resend_prompt: '¿No recibiste el correo?',
  resend_sent: 'Un código nuevo va en camino. Revisa tu bandeja de entrada.',
  verified_sign_in: 'Tu correo está verificado. Inicia sesión',
};

export const fr: VerificationCatalog = {
  send_title: 'Votre adresse e-mail n’est pas encore vérifiée',
  send_body: 'L’adresse {{email}} doit être vérifiée avant que vous puissiez vous connecter.',
  send_submit: 'Envoyer le code de vérification',
  cancel: 'Annuler',
  popup_title: 'Consultez vos e-mails',
  popup_ok: 'OK',
  code_title: 'Vérifiez votre adresse e-mail',
  code_body: 'Nous avons envoyé un code à 6 chiffres à {{email}}. Saisissez-le ci-dessous.',
  code_label: 'Code de vérification',
  code_submit: 'Vérifier',
  resend_prompt: 'Vous n’avez pas reçu l’e-mail ?',
  resend_sent: 'Un nouveau code est en route. Consultez votre boîte de réception.',
  verified_sign_in: 'Votre e-mail est vérifié. Connectez-vous',
};

export const pt: VerificationCatalog = {
  send_title: 'Seu e-mail ainda não foi verificado',
  send_body: 'O endereço {{email}} precisa ser verificado antes de você entrar.',
  send_submit: 'Enviar código de verificação',
  cancel: 'Cancelar',
  popup_title: 'Verifique seu e-mail',
  popup_ok: 'OK',
  code_title: 'Verifique seu e-mail',
  code_body: 'Enviamos um código de 6 dígitos para {{email}}. Digite-o abaixo.',
  code_label: 'Código de verificação',
  code_submit: 'Verificar',
  resend_prompt: 'Não recebeu o e-mail?',
  resend_sent: 'Um novo código está a caminho. Verifique sua caixa de entrada.',
  verified_sign_in: 'Seu e-mail foi verificado. Entre',
};

export const zh: VerificationCatalog = {
  send_title: '您的电子邮箱尚未验证',
  send_body: '登录前必须先验证电子邮箱 {{email}}。',
  send_submit: '发送验证码',
  cancel: '取消',
  popup_title: '请查收邮件',
  popup_ok: '确定',
  code_title: '验证您的电子邮箱',
  code_body: '我们已向 {{email}} 发送了 6 位验证码，请在下方输入。',
  code_label: '验证码',
  code_submit: '验证',
  resend_prompt: '没有收到邮件？',
  resend_sent: '新的验证码已发送，请查收邮件。',
  verified_sign_in: '邮箱已验证。请登录',
};

export const ar: VerificationCatalog = {
  send_title: 'لم يتم التحقق من بريدك الإلكتروني بعد',
  send_body: 'يجب التحقق من البريد الإلكتروني {{email}} قبل تسجيل الدخول.',
  send_submit: 'إرسال رمز التحقق',
  cancel: 'إلغاء',
  popup_title: 'تحقق من بريدك',
  popup_ok: 'حسنًا',
  code_title: 'تحقق من بريدك الإلكتروني',
  code_body: 'أرسلنا رمزًا من 6 أرقام إلى {{email}}. أدخله أدناه.',
  code_label: 'رمز التحقق',
  code_submit: 'تحقق',
  resend_prompt: 'لم تصلك الرسالة؟',
  resend_sent: 'رمز جديد في الطريق إليك. تحقق من صندوق الوارد.',
  verified_sign_in: 'تم التحقق من بريدك الإلكتروني. سجّل الدخول',
};

export const de: VerificationCatalog = {
  send_title: 'Ihre E-Mail-Adresse ist noch nicht bestätigt',
  send_body: 'Die E-Mail-Adresse {{email}} muss bestätigt werden, bevor Sie sich anmelden können.',
  send_submit: 'Bestätigungscode senden',
  cancel: 'Abbrechen',
  popup_title: 'Prüfen Sie Ihr E-Mail-Postfach',
  popup_ok: 'OK',
  code_title: 'Bestätigen Sie Ihre E-Mail-Adresse',
  code_body: 'Wir haben einen 6-stelligen Code an {{email}} gesendet. Geben Sie ihn unten ein.',
  code_label: 'Bestätigungscode',
  code_submit: 'Bestätigen',
  resend_prompt: 'Keine E-Mail erhalten?',
  resend_sent: 'Ein neuer Code ist unterwegs. Bitte prüfen Sie Ihren Posteingang.',
  verified_sign_in: 'Ihre E-Mail-Adresse ist bestätigt. Jetzt anmelden',
};
