import type { MailTexts } from './types.ts';

export const pt: MailTexts = {
  dir: 'ltr',
  greeting: (first) => (first ? `Olá ${first},` : 'Olá,'),
  verify: {
    subject: 'Verifique o seu endereço de e-mail',
    intro: 'Confirme o seu endereço de e-mail para concluir a criação da sua conta.',
    codeLabel: 'O seu código de verificação é',
    action: 'Verificar o meu e-mail',
    expiry: 'O código é válido por 24 horas.',
  },
  reset: {
    subject: 'Redefina a sua senha',
    intro: 'Recebemos um pedido para redefinir a senha da sua conta.',
    codeLabel: 'O seu código de redefinição de senha é',
    action: 'Escolher uma nova senha',
    expiry: 'O código é válido por 1 hora.',
  },
  invite: {
    subject: (p) => `Você foi convidado para ${p}`,
    intro: (p) => `Você foi convidado a criar uma conta em ${p}.`,
    action: 'Criar a minha conta',
  },
  locked: {
    subject: 'A sua conta foi bloqueada',
    intro:
      'Bloqueamos a sua conta após 100 tentativas de login malsucedidas seguidas. Se não foi você, alguém pode estar tentando adivinhar a sua senha.',
    advice:
      'A conta é desbloqueada automaticamente em até 24 horas, ou o seu administrador pode desbloqueá-la agora. Depois disso, você pode escolher uma nova senha.',
    action: 'Ir para o login',
  },
  ignore: 'Se não fez este pedido, pode ignorar este e-mail.',
  signOff: (p) => `A equipa ${p}`,
};
