/** Namespace 'errorPages': error-generic and error-timeout. {{provider}} is cfg.providerName. */
export const en = {
  generic_title: 'Something went wrong',
  generic_body: 'Sorry, your {{provider}} request could not be completed at this time.',
  timeout_title: 'The request timed out',
  timeout_body: 'Sorry, your {{provider}} request has timed-out.',
  continue: 'Continue',
  go_back: 'Go back',
};

export type ErrorPagesCatalog = Record<keyof typeof en, string>;

export const es: ErrorPagesCatalog = {
  generic_title: 'Algo salió mal',
  generic_body: 'Lo sentimos, tu solicitud a {{provider}} no se pudo completar en este momento.',
  timeout_title: 'Se agotó el tiempo de la solicitud',
  timeout_body: 'Lo sentimos, se agotó el tiempo de tu solicitud a {{provider}}.',
  continue: 'Continuar',
  go_back: 'Volver',
};

export const fr: ErrorPagesCatalog = {
  generic_title: 'Un problème est survenu',
  generic_body: 'Désolé, votre demande {{provider}} n’a pas pu aboutir pour le moment.',
  timeout_title: 'La demande a expiré',
  timeout_body: 'Désolé, votre demande {{provider}} a expiré.',
  continue: 'Continuer',
  go_back: 'Retour',
};

export const pt: ErrorPagesCatalog = {
  generic_title: 'Algo deu errado',
  generic_body: 'Desculpe, sua solicitação ao {{provider}} não pôde ser concluída agora.',
  timeout_title: 'A solicitação expirou',
  timeout_body: 'Desculpe, o tempo da sua solicitação ao {{provider}} esgotou.',
  continue: 'Continuar',
  go_back: 'Voltar',
};

export const zh: ErrorPagesCatalog = {
  generic_title: '出了点问题',
  generic_body: '抱歉，您的 {{provider}} 请求目前无法完成。',
  timeout_title: '请求超时',
  timeout_body: '抱歉，您的 {{provider}} 请求已超时。',
  continue: '继续',
  go_back: '返回',
};

export const ar: ErrorPagesCatalog = {
  generic_title: 'حدث خطأ ما',
  generic_body: 'عذرًا، تعذّر إكمال طلبك إلى {{provider}} في الوقت الحالي.',
  timeout_title: 'انتهت مهلة الطلب',
  timeout_body: 'عذرًا، انتهت مهلة طلبك إلى {{provider}}.',
  continue: 'متابعة',
  go_back: 'رجوع',
};

export const de: ErrorPagesCatalog = {
  generic_title: 'Etwas ist schiefgelaufen',
  generic_body: 'Leider konnte Ihre Anfrage an {{provider}} derzeit nicht abgeschlossen werden.',
  timeout_title: 'Zeitüberschreitung der Anfrage',
  timeout_body: 'Leider ist bei Ihrer Anfrage an {{provider}} eine Zeitüberschreitung aufgetreten.',
  continue: 'Weiter',
  go_back: 'Zurück',
};
