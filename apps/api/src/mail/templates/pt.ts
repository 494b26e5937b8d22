import type { MailTexts } from './types.ts';

/** Brazilian Portuguese, as the web app's (você, senha, e-mail). */
export const pt: MailTexts = {
  colon: ': ',
  dir: 'ltr',
  greeting: (first) => (first ? `Olá, ${first},` : 'Olá,'),
  verify: {
    subject: 'Verifique seu endereço de e-mail',
    intro: 'Confirme seu endereço de e-mail para concluir a criação da sua conta.',
    codeLabel: 'Seu código de verificação é',
    action: 'Verificar meu e-mail',
    expiry: 'O código é válido por 24 horas.',
  },
  reset: {
    subject: 'Redefina sua senha',
    intro: 'Recebemos uma solicitação para redefinir a senha da sua conta.',
    codeLabel: 'Seu código de redefinição de senha é',
    action: 'Escolher uma nova senha',
    expiry: 'O código é válido por 1 hora.',
  },
  invite: {
    subject: (p) => `Você foi convidado para ${p}`,
    intro: (p) => `Você foi convidado a criar uma conta em ${p}.`,
    action: 'Criar minha conta',
    expiry: (days) => `O convite é válido por ${days} dias.`,
    ignore: 'Se você não esperava este convite, pode ignorar este e-mail.',
  },
  locked: {
    subject: 'Sua conta foi bloqueada',
    intro:
      'Bloqueamos sua conta após 100 tentativas de login malsucedidas seguidas. Se não foi você, alguém pode estar tentando adivinhar sua senha.',
    advice:
      'A conta é desbloqueada automaticamente em até 24 horas, ou seu administrador pode desbloqueá-la agora. Depois disso, você pode escolher uma nova senha.',
    action: 'Ir para o login',
  },
  ignore: 'Se você não fez esta solicitação, pode ignorar este e-mail.',
  signOff: (p) => `Equipe ${p}`,
};
