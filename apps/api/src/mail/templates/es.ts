import type { MailTexts } from './types.ts';

export const es: MailTexts = {
  colon: ': ',
  dir: 'ltr',
  greeting: (first) => (first ? `Hola ${first}:` : 'Hola:'),
  verify: {
    subject: 'Verifica tu dirección de correo electrónico',
    intro: 'Confirma tu dirección de correo electrónico para terminar de crear tu cuenta.',
    codeLabel: 'Tu código de verificación es',
    action: 'Verificar mi correo',
    expiry: 'El código es válido durante 24 horas.',
  },
  reset: {
    subject: 'Restablece tu contraseña',
    intro: 'Recibimos una solicitud para restablecer la contraseña de tu cuenta.',
    codeLabel: 'Tu código para restablecer la contraseña es',
    action: 'Elegir una nueva contraseña',
    expiry: 'El código es válido durante 1 hora.',
  },
  invite: {
    subject: (p) => `Te invitamos a ${p}`,
    intro: (p) => `Te han invitado a crear una cuenta en ${p}.`,
    action: 'Crear mi cuenta',
    expiry: (days) => `La invitación es válida durante ${days} días.`,
    ignore: 'Si no esperabas esta invitación, puedes ignorar este correo.',
  },
  locked: {
    subject: 'Tu cuenta se ha bloqueado',
    intro:
      'Bloqueamos tu cuenta tras 100 intentos fallidos seguidos de inicio de sesión. Si no fuiste tú, es posible que alguien esté intentando adivinar tu contraseña.',
    advice:
      'La cuenta se desbloquea sola en un plazo de 24 horas, o tu administrador puede desbloquearla ahora. Después, puedes elegir una nueva contraseña.',
    action: 'Ir al inicio de sesión',
  },
  ignore: 'Si no lo solicitaste, puedes ignorar este correo.',
  signOff: (p) => `El equipo de ${p}`,
};
