/** Namespace 'flowShared': texts of the pieces several flows share (password checklist, redirects). */
export const en = {
  password_rules_title: 'Your password needs:',
  rule_minLength: 'At least {{count}} characters',
  rule_uppercaseMissing: 'An uppercase letter',
  rule_lowercaseMissing: 'A lowercase letter',
  rule_digitMissing: 'A digit',
  rule_specialCharacterMissing: 'A special character',
  rule_met: 'done',
  rule_unmet: 'still needed',
  rules_status: '{{met}} of {{total}} password rules met.',
};

export type FlowSharedCatalog = Record<keyof typeof en, string>;

export const es: FlowSharedCatalog = {
  password_rules_title: 'Tu contraseña necesita:',
  rule_minLength: 'Al menos {{count}} caracteres',
  rule_uppercaseMissing: 'Una letra mayúscula',
  rule_lowercaseMissing: 'Una letra minúscula',
  rule_digitMissing: 'Un número',
  rule_specialCharacterMissing: 'Un carácter especial',
  rule_met: 'cumplido',
  rule_unmet: 'pendiente',
  rules_status: 'Se cumplen {{met}} de {{total}} requisitos de la contraseña.',
};

export const fr: FlowSharedCatalog = {
  password_rules_title: 'Votre mot de passe doit contenir :',
  rule_minLength: 'Au moins {{count}} caractères',
  rule_uppercaseMissing: 'Une lettre majuscule',
  rule_lowercaseMissing: 'Une lettre minuscule',
  rule_digitMissing: 'Un chiffre',
  rule_specialCharacterMissing: 'Un caractère spécial',
  rule_met: 'fait',
  rule_unmet: 'manquant',
  rules_status: '{{met}} règles du mot de passe respectées sur {{total}}.',
};

export const pt: FlowSharedCatalog = {
  password_rules_title: 'Sua senha precisa de:',
  rule_minLength: 'Pelo menos {{count}} caracteres',
  rule_uppercaseMissing: 'Uma letra maiúscula',
  rule_lowercaseMissing: 'Uma letra minúscula',
  rule_digitMissing: 'Um número',
  rule_specialCharacterMissing: 'Um caractere especial',
  rule_met: 'concluído',
  rule_unmet: 'pendente',
  rules_status: '{{met}} de {{total}} regras da senha atendidas.',
};

export const zh: FlowSharedCatalog = {
  password_rules_title: '您的密码需要：',
  rule_minLength: '至少 {{count}} 个字符',
  rule_uppercaseMissing: '一个大写字母',
  rule_lowercaseMissing: '一个小写字母',
  rule_digitMissing: '一个数字',
  rule_specialCharacterMissing: '一个特殊字符',
  rule_met: '已满足',
  rule_unmet: '尚未满足',
  rules_status: '已满足 {{met}}/{{total}} 项密码要求。',
};

export const ar: FlowSharedCatalog = {
  password_rules_title: 'يجب أن تحتوي كلمة المرور على:',
  rule_minLength: '{{count}} حرفًا على الأقل',
  rule_uppercaseMissing: 'حرف كبير',
  rule_lowercaseMissing: 'حرف صغير',
  rule_digitMissing: 'رقم',
  rule_specialCharacterMissing: 'رمز خاص',
  rule_met: 'مكتمل',
  rule_unmet: 'غير مكتمل',
  rules_status: 'تم استيفاء {{met}} من {{total}} من قواعد كلمة المرور.',
};

export const de: FlowSharedCatalog = {
  password_rules_title: 'Ihr Passwort benötigt:',
  rule_minLength: 'Mindestens {{count}} Zeichen',
  rule_uppercaseMissing: 'Einen Großbuchstaben',
  rule_lowercaseMissing: 'Einen Kleinbuchstaben',
  rule_digitMissing: 'Eine Ziffer',
  rule_specialCharacterMissing: 'Ein Sonderzeichen',
  rule_met: 'erfüllt',
  rule_unmet: 'noch offen',
  rules_status: '{{met}} von {{total}} Passwortregeln erfüllt.',
};
