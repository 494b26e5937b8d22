import { messages } from './english-messages.ts';
import type { MessageCode } from './messages.ts';

/**
 * Every contract message by code, in every bundled language: the SPA's 'errors' namespace and the
 * server's own pages (identity/pages.ts). English IS the contract's `messages` (never copied); the
 * other languages translate every code (tsc and the catalog test fail on a missing one). A subpath
 * of its own (`@frontdoor/contract/message-catalogs`), so a page's first script never carries them:
 * the SPA loads one language's chunk.
 */
export const en: Record<MessageCode, string> = messages;

export type ErrorsCatalog = Record<MessageCode, string>;

export const es: ErrorsCatalog = {
  firstNameRequired: 'El nombre es un campo obligatorio.',
  lastNameRequired: 'El apellido es un campo obligatorio.',
  firstNameTooLong: 'El nombre debe tener como máximo 100 caracteres.',
  lastNameTooLong: 'El apellido debe tener como máximo 100 caracteres.',
  emailInvalidSignup: 'Introduce una dirección de correo electrónico válida arriba.',
  passwordRequired: 'La contraseña es un campo obligatorio.',
  confirmPasswordRequired: 'La contraseña de confirmación es obligatoria',
  passwordsDoNotMatch: 'Las contraseñas no coinciden',
  formInvalid: 'Corrige los problemas que se indican a continuación para continuar.',
  descriptionRequired: 'Elige la opción que mejor te describe.',
  emailFormatInvalid: 'Formato de correo electrónico no válido.',
  workEmailInvalid: 'Introduce una dirección de correo electrónico válida',
  accessCodeLength: '¡El código de acceso debe tener exactamente 6 dígitos!',
  verifyEmailParamMissing: '¡Falta el parámetro de correo electrónico o no es válido!',
  verifyCodeParamMissing: '¡Falta el parámetro del código de verificación o no es válido!',
  codeRequired: 'Introduce el código de 8 dígitos de tu correo electrónico.',
  passwordResetCodeSentPopup:
    '¡Se ha enviado un código para restablecer la contraseña a tu correo electrónico!  Revisa tu bandeja de entrada.',
  resetResendSuccess:
    '¡Se ha enviado un nuevo código para restablecer la contraseña a tu correo electrónico!  Revisa tu bandeja de entrada.',
  unknownError: 'Se produjo un error desconocido.',
  invalidVerificationCode: 'El código de verificación no es válido, inténtalo de nuevo.',
  invalidCodeRequestAgain: 'El código no es válido, solicita un código nuevo.',
  requestNewVerificationCode: 'Solicitar un nuevo código de verificación',
  accessCodeFailed: 'El código que introdujiste no funcionó. Inténtalo de nuevo o habla con tu profesor.',
  accessCodeWrongProviderPrefix: 'El código que introdujiste no es para',
  workEmailValidationFailed: 'No se pudo validar el correo electrónico. Inténtalo de nuevo.',
  workEmailNotFound:
    'No encontramos este correo electrónico en nuestro sistema. Revísalo e inténtalo de nuevo.',
  workEmailAccessDenied: 'Acceso denegado. Ponte en contacto con tu administrador.',
  workEmailOtherError: 'Se produjo un error. Inténtalo de nuevo más tarde.',
  verifyPageFailure: 'No se pudo confirmar tu código de acceso en este momento.',
  verifyPageSuccess: '¡Tu cuenta se ha verificado, gracias!',
  loginParamsFailure: 'Error desconocido al obtener los parámetros de inicio de sesión',
  authNotInitialized:
    'El objeto de autenticación no se ha inicializado correctamente; no se puede comprobar el rol.',
  networkError: 'No pudimos conectar con el servidor. Revisa tu conexión e inténtalo de nuevo.',
  accountExists: 'Ya existe una cuenta con este correo electrónico.',
  userNotFound: 'No se encontró la combinación de usuario e identificador de cliente.',
  userNotConfirmed: 'El usuario no está confirmado.',
  userAlreadyConfirmed: 'No se puede confirmar el usuario. Su estado actual es CONFIRMADO',
  incorrectCredentials: 'Usuario o contraseña incorrectos.',
  passwordResetRequired: 'El usuario debe restablecer su contraseña',
  expiredCode: 'El código no es válido, solicita un código nuevo.',
  attemptLimit: 'Se superó el límite de intentos; inténtalo de nuevo más tarde.',
  passwordPolicy:
    'La contraseña no cumple la política: debe tener al menos 12 caracteres, una letra mayúscula, una letra minúscula, un dígito y un carácter especial.',
  passwordCommon:
    'Esta contraseña es demasiado común, o es una contraseña común con algunos dígitos o símbolos añadidos. Elige otra.',
  passwordPersonal:
    'La contraseña no debe contener tu nombre ni una parte de tu dirección de correo electrónico.',
  inviteNotFound: 'Este enlace de invitación no es válido o ha caducado.',
  inviteAccepted:
    'Esta invitación ya se aceptó. Inicia sesión con su dirección de correo: si la dirección aún no está verificada, te enviaremos un código para verificarla.',
  loginRequestNotFound:
    'Este enlace de inicio de sesión no es válido o ha caducado. Vuelve a empezar desde la aplicación de la que vienes.',
  accessCodeNotFound: 'El código que introdujiste no funcionó. Inténtalo de nuevo o habla con tu profesor.',
  cookieHashInvalid: 'Este enlace de inicio de sesión no es válido o ha caducado.',
  returnUrlNotAllowed: 'La dirección de retorno no está permitida para esta aplicación.',
  notSignedIn: 'No has iniciado sesión.',
  forbidden: 'No tienes permiso para hacer esto.',
  crossSiteRequest: 'Esta solicitud vino de otro sitio. Vuelve a empezar desde este portal.',
  cookiesBlocked:
    'Este navegador bloquea las cookies de este sitio, así que no puedes iniciar sesión. Permite las cookies para este sitio (o pide ayuda al equipo de informática de tu centro) e inténtalo de nuevo.',
  badRequest: 'La solicitud no es válida.',
  notFound: 'No encontrado.',
  payloadTooLarge: 'La solicitud es demasiado grande.',
  tooManyRequests: 'Demasiadas solicitudes. Espera un momento e inténtalo de nuevo.',
  tooManyFailures: 'Demasiados intentos fallidos para esta cuenta. Espera un poco e inténtalo de nuevo.',
  accountLocked:
    'Esta cuenta se ha bloqueado tras demasiados intentos fallidos. Se desbloquea en un plazo de 24 horas, o tu administrador puede desbloquearla ahora.',
  accountDisabled:
    'Esta cuenta está desactivada. Pide al administrador de tu centro que la vuelva a activar.',
  addressFailureLimit: 'Demasiados intentos fallidos desde tu red. Inténtalo de nuevo más tarde.',
  codeSendLimit:
    'Se han enviado demasiados códigos a esta dirección de correo electrónico. Usa el código más reciente que recibiste o inténtalo de nuevo dentro de una hora.',
  resendCooldown:
    'Se envió un código hace un momento. Revisa tu correo o espera unos segundos antes de pedir otro.',
  mailRejected: 'El correo a esta dirección fue rechazado. Revisa que esté bien escrita.',
  mailDelayed:
    'Tu código está en camino, pero el correo se está retrasando. Estamos intentando enviarlo de nuevo ahora: el código que enviamos seguirá funcionando cuando llegue.',
  accessCodesPaused:
    'El inicio de sesión con códigos de clase está en pausa para esta aplicación tras demasiados códigos incorrectos. Pregunta a tu profesor.',
  serverBusy: 'El servidor está ocupado. Inténtalo de nuevo en unos segundos.',
  serviceProviderAuthFailed: 'Las credenciales del proveedor de servicios no son válidas.',
  stateInvalid: 'Este intento de inicio de sesión ya no es válido. Vuelve a empezar.',
  upstreamFailed: 'El proveedor de inicio de sesión no pudo completar la solicitud. Inténtalo de nuevo.',
  upstreamRefused:
    'El proveedor de inicio de sesión no completó tu inicio de sesión. Comprueba que elegiste la cuenta correcta o elige otra forma de iniciar sesión.',
  internalError: 'Algo salió mal por nuestra parte. Inténtalo de nuevo más tarde.',
  signInStopped: 'No se pudo continuar con el inicio de sesión',
  backToSignIn: 'Volver al inicio de sesión',
  useEmailInstead:
    'Continúa con tu correo electrónico y tu contraseña. Si olvidaste tu contraseña, allí puedes elegir una nueva.',
};

export const fr: ErrorsCatalog = {
  firstNameRequired: 'Le prénom est un champ obligatoire.',
  lastNameRequired: 'Le nom est un champ obligatoire.',
  firstNameTooLong: 'Le prénom doit comporter au maximum 100 caractères.',
  lastNameTooLong: 'Le nom doit comporter au maximum 100 caractères.',
  emailInvalidSignup: 'Veuillez saisir une adresse e-mail valide ci-dessus.',
  passwordRequired: 'Le mot de passe est un champ obligatoire.',
  confirmPasswordRequired: 'Le mot de passe de confirmation est obligatoire',
  passwordsDoNotMatch: 'Les mots de passe ne correspondent pas',
  formInvalid: 'Veuillez corriger les problèmes indiqués ci-dessous pour continuer.',
  descriptionRequired: 'Veuillez choisir ce qui vous décrit le mieux.',
  emailFormatInvalid: 'Format d’adresse e-mail non valide.',
  workEmailInvalid: 'Veuillez saisir une adresse e-mail valide',
  accessCodeLength: 'Le code d’accès doit comporter exactement 6 chiffres !',
  verifyEmailParamMissing: 'Le paramètre e-mail est manquant ou non valide !',
  verifyCodeParamMissing: 'Le paramètre du code de vérification est manquant ou non valide !',
  codeRequired: 'Veuillez saisir le code à 8 chiffres reçu par e-mail.',
  passwordResetCodeSentPopup:
    'Un code de réinitialisation du mot de passe a été envoyé à votre adresse e-mail !  Veuillez consulter votre boîte de réception.',
  resetResendSuccess:
    'Un nouveau code de réinitialisation du mot de passe a été envoyé à votre adresse e-mail !  Veuillez consulter votre boîte de réception.',
  unknownError: 'Une erreur inconnue s’est produite.',
  invalidVerificationCode: 'Code de vérification non valide, veuillez réessayer.',
  invalidCodeRequestAgain: 'Code non valide, veuillez demander un nouveau code.',
  requestNewVerificationCode: 'Demander un nouveau code de vérification',
  accessCodeFailed: 'Le code saisi n’a pas fonctionné. Réessayez ou adressez-vous à votre enseignant.',
  accessCodeWrongProviderPrefix: 'Le code saisi n’est pas destiné à',
  workEmailValidationFailed: 'La validation de l’adresse e-mail a échoué. Veuillez réessayer.',
  workEmailNotFound: 'Adresse e-mail introuvable dans notre système. Vérifiez-la et réessayez.',
  workEmailAccessDenied: 'Accès refusé. Veuillez contacter votre administrateur.',
  workEmailOtherError: 'Une erreur s’est produite. Veuillez réessayer plus tard.',
  verifyPageFailure: 'Votre code d’accès n’a pas pu être confirmé pour le moment.',
  verifyPageSuccess: 'Votre compte a été vérifié, merci !',
  loginParamsFailure: 'Échec inconnu lors de la récupération des paramètres de connexion',
  authNotInitialized:
    'L’objet d’authentification n’a pas été correctement initialisé, impossible de vérifier le rôle !',
  networkError: 'Impossible de joindre le serveur. Vérifiez votre connexion et réessayez.',
  accountExists: 'Un compte existe déjà avec cette adresse e-mail.',
  userNotFound: 'Combinaison nom d’utilisateur / identifiant client introuvable.',
  userNotConfirmed: 'L’utilisateur n’est pas confirmé.',
  userAlreadyConfirmed: 'L’utilisateur ne peut pas être confirmé. Statut actuel : CONFIRMÉ',
  incorrectCredentials: 'Nom d’utilisateur ou mot de passe incorrect.',
  passwordResetRequired: 'L’utilisateur doit réinitialiser son mot de passe',
  expiredCode: 'Code non valide, veuillez demander un nouveau code.',
  attemptLimit: 'Nombre de tentatives dépassé, veuillez réessayer plus tard.',
  passwordPolicy:
    'Le mot de passe ne respecte pas la politique : il doit comporter au moins 12 caractères, une majuscule, une minuscule, un chiffre et un caractère spécial.',
  passwordCommon:
    'Ce mot de passe est trop courant, ou c’est un mot de passe courant auquel on a ajouté quelques chiffres ou symboles. Choisissez-en un autre.',
  passwordPersonal: 'Le mot de passe ne doit contenir ni votre nom ni une partie de votre adresse e-mail.',
  inviteNotFound: 'Ce lien d’invitation n’est pas valide ou a expiré.',
  inviteAccepted:
    'Cette invitation a déjà été acceptée. Connectez-vous avec son adresse e-mail : si l’adresse n’est pas encore vérifiée, un code vous sera envoyé pour la vérifier.',
  loginRequestNotFound:
    'Ce lien de connexion n’est pas valide ou a expiré. Recommencez depuis l’application d’où vous venez.',
  accessCodeNotFound: 'Le code saisi n’a pas fonctionné. Réessayez ou adressez-vous à votre enseignant.',
  cookieHashInvalid: 'Ce lien de connexion n’est pas valide ou a expiré.',
  returnUrlNotAllowed: 'L’adresse de retour n’est pas autorisée pour cette application.',
  notSignedIn: 'Vous n’êtes pas connecté.',
  forbidden: 'Vous n’êtes pas autorisé à faire cela.',
  crossSiteRequest: 'Cette demande provient d’un autre site. Veuillez recommencer depuis ce portail.',
  cookiesBlocked:
    'Ce navigateur bloque les cookies de ce site, vous ne pouvez donc pas vous connecter. Autorisez les cookies pour ce site (ou demandez à l’équipe informatique de votre établissement), puis réessayez.',
  badRequest: 'La demande n’est pas valide.',
  notFound: 'Introuvable.',
  payloadTooLarge: 'La demande est trop volumineuse.',
  tooManyRequests: 'Trop de demandes. Patientez un instant et réessayez.',
  tooManyFailures: 'Trop de tentatives échouées pour ce compte. Patientez un peu et réessayez.',
  accountLocked:
    'Ce compte est verrouillé après trop de tentatives échouées. Il se déverrouille sous 24 heures, ou votre administrateur peut le déverrouiller dès maintenant.',
  accountDisabled:
    'Ce compte est désactivé. Demandez à l’administrateur de votre établissement de le réactiver.',
  addressFailureLimit: 'Trop de tentatives échouées depuis votre réseau. Veuillez réessayer plus tard.',
  codeSendLimit:
    'Trop de codes ont été envoyés à cette adresse e-mail. Utilisez le code le plus récent que vous avez reçu, ou réessayez dans une heure.',
  resendCooldown:
    'Un code vient d’être envoyé. Consultez vos e-mails ou patientez quelques secondes avant d’en demander un autre.',
  mailRejected:
    'Les e-mails vers cette adresse sont refusés. Vérifiez qu’elle ne contient pas de faute de frappe.',
  mailDelayed:
    'Votre code est en route, mais l’envoi des e-mails prend du retard. Nous essayons de l’envoyer à nouveau maintenant : le code envoyé fonctionnera toujours à son arrivée.',
  accessCodesPaused:
    'La connexion avec un code de classe est suspendue pour cette application après trop de codes incorrects. Adressez-vous à votre enseignant.',
  serverBusy: 'Le serveur est occupé. Veuillez réessayer dans quelques secondes.',
  serviceProviderAuthFailed: 'Les identifiants du fournisseur de services ne sont pas valides.',
  stateInvalid: 'Cette tentative de connexion n’est plus valide. Veuillez recommencer.',
  upstreamFailed: 'Le fournisseur de connexion n’a pas pu traiter la demande. Veuillez réessayer.',
  upstreamRefused:
    'Le fournisseur de connexion ne vous a pas connecté. Vérifiez que vous avez choisi le bon compte, ou choisissez un autre moyen de vous connecter.',
  internalError: 'Un problème est survenu de notre côté. Veuillez réessayer plus tard.',
  signInStopped: 'La connexion n’a pas pu se poursuivre',
  backToSignIn: 'Retour à la connexion',
  useEmailInstead:
    'Continuez plutôt avec votre e-mail et votre mot de passe. Si vous l’avez oublié, vous pourrez en choisir un nouveau.',
};

export const pt: ErrorsCatalog = {
  firstNameRequired: 'O nome é um campo obrigatório.',
  lastNameRequired: 'O sobrenome é um campo obrigatório.',
  firstNameTooLong: 'O nome deve ter no máximo 100 caracteres.',
  lastNameTooLong: 'O sobrenome deve ter no máximo 100 caracteres.',
  emailInvalidSignup: 'Informe um endereço de e-mail válido acima.',
  passwordRequired: 'A senha é um campo obrigatório.',
  confirmPasswordRequired: 'A senha de confirmação é obrigatória',
  passwordsDoNotMatch: 'As senhas não coincidem',
  formInvalid: 'Corrija os problemas indicados abaixo para continuar.',
  descriptionRequired: 'Escolha o que melhor descreve você.',
  emailFormatInvalid: 'Formato de e-mail inválido.',
  workEmailInvalid: 'Informe um endereço de e-mail válido',
  accessCodeLength: 'O código de acesso deve ter exatamente 6 dígitos!',
  verifyEmailParamMissing: 'O parâmetro de e-mail está ausente ou é inválido!',
  verifyCodeParamMissing: 'O parâmetro do código de verificação está ausente ou é inválido!',
  codeRequired: 'Informe o código de 8 dígitos enviado para o seu e-mail.',
  passwordResetCodeSentPopup:
    'Um código de redefinição de senha foi enviado para o seu e-mail!  Verifique sua caixa de entrada.',
  resetResendSuccess:
    'Um novo código de redefinição de senha foi enviado para o seu e-mail!  Verifique sua caixa de entrada.',
  unknownError: 'Ocorreu um erro desconhecido.',
  invalidVerificationCode: 'Código de verificação inválido, tente novamente.',
  invalidCodeRequestAgain: 'Código inválido, solicite um novo código.',
  requestNewVerificationCode: 'Solicitar novo código de verificação',
  accessCodeFailed: 'O código informado não funcionou. Tente novamente ou fale com seu professor.',
  accessCodeWrongProviderPrefix: 'O código informado não é para',
  workEmailValidationFailed: 'Falha na validação do e-mail. Tente novamente.',
  workEmailNotFound: 'E-mail não encontrado em nosso sistema. Verifique e tente novamente.',
  workEmailAccessDenied: 'Acesso negado. Entre em contato com o seu administrador.',
  workEmailOtherError: 'Ocorreu um erro. Tente novamente mais tarde.',
  verifyPageFailure: 'Não foi possível confirmar seu código de acesso no momento.',
  verifyPageSuccess: 'Sua conta foi verificada, obrigado!',
  loginParamsFailure: 'Falha desconhecida ao obter os parâmetros de login',
  authNotInitialized:
    'O objeto de autenticação não foi inicializado corretamente; não é possível verificar a função!',
  networkError: 'Não foi possível acessar o servidor. Verifique sua conexão e tente novamente.',
  accountExists: 'Já existe uma conta com este e-mail.',
  userNotFound: 'Combinação de usuário e ID de cliente não encontrada.',
  userNotConfirmed: 'O usuário não está confirmado.',
  userAlreadyConfirmed: 'Não é possível confirmar o usuário. Status atual: CONFIRMADO',
  incorrectCredentials: 'Usuário ou senha incorretos.',
  passwordResetRequired: 'O usuário precisa redefinir a senha',
  expiredCode: 'Código inválido, solicite um novo código.',
  attemptLimit: 'Limite de tentativas excedido, tente novamente mais tarde.',
  passwordPolicy:
    'A senha não atende à política: ela deve ter pelo menos 12 caracteres, uma letra maiúscula, uma letra minúscula, um dígito e um caractere especial.',
  passwordCommon:
    'Esta senha é comum demais, ou é uma senha comum com alguns dígitos ou símbolos acrescentados. Escolha outra.',
  passwordPersonal: 'A senha não deve conter seu nome nem uma parte do seu endereço de e-mail.',
  inviteNotFound: 'Este link de convite não é válido ou expirou.',
  inviteAccepted:
    'Este convite já foi aceito. Entre com o endereço de e-mail dele: se o endereço ainda não estiver verificado, enviaremos um código para verificá-lo.',
  loginRequestNotFound:
    'Este link de login não é válido ou expirou. Comece novamente a partir do aplicativo de onde você veio.',
  accessCodeNotFound: 'O código informado não funcionou. Tente novamente ou fale com seu professor.',
  cookieHashInvalid: 'Este link de login não é válido ou expirou.',
  returnUrlNotAllowed: 'O endereço de retorno não é permitido para este aplicativo.',
  notSignedIn: 'Você não está conectado.',
  forbidden: 'Você não tem permissão para fazer isso.',
  crossSiteRequest: 'Esta solicitação veio de outro site. Comece novamente a partir deste portal.',
  cookiesBlocked:
    'Este navegador está bloqueando os cookies deste site, por isso você não pode fazer login. Permita os cookies para este site (ou peça ajuda à equipe de TI da sua escola) e tente novamente.',
  badRequest: 'A solicitação não é válida.',
  notFound: 'Não encontrado.',
  payloadTooLarge: 'A solicitação é muito grande.',
  tooManyRequests: 'Solicitações demais. Aguarde um momento e tente novamente.',
  tooManyFailures: 'Tentativas malsucedidas demais nesta conta. Aguarde um pouco e tente novamente.',
  accountLocked:
    'Esta conta foi bloqueada após muitas tentativas malsucedidas. Ela será desbloqueada em até 24 horas, ou o seu administrador pode desbloqueá-la agora.',
  accountDisabled: 'Esta conta está desativada. Peça ao administrador da sua escola para reativá-la.',
  addressFailureLimit: 'Tentativas malsucedidas demais a partir da sua rede. Tente novamente mais tarde.',
  codeSendLimit:
    'Foram enviados códigos demais para este endereço de e-mail. Use o código mais recente que você recebeu ou tente novamente daqui a uma hora.',
  resendCooldown:
    'Um código foi enviado há pouco. Verifique seu e-mail ou aguarde alguns segundos antes de pedir outro.',
  mailRejected: 'Os e-mails para este endereço foram recusados. Verifique se ele está escrito corretamente.',
  mailDelayed:
    'Seu código está a caminho, mas o e-mail está atrasado. Estamos tentando enviá-lo novamente agora: o código enviado ainda funcionará quando chegar.',
  accessCodesPaused:
    'O login com códigos de turma está pausado neste aplicativo após muitos códigos incorretos. Fale com seu professor.',
  serverBusy: 'O servidor está ocupado. Tente novamente em alguns segundos.',
  serviceProviderAuthFailed: 'As credenciais do provedor de serviços não são válidas.',
  stateInvalid: 'Esta tentativa de login não é mais válida. Comece novamente.',
  upstreamFailed: 'O provedor de login não conseguiu concluir a solicitação. Tente novamente.',
  upstreamRefused:
    'O provedor de login não concluiu seu login. Verifique se você escolheu a conta certa ou escolha outra forma de fazer login.',
  internalError: 'Algo deu errado do nosso lado. Tente novamente mais tarde.',
  signInStopped: 'Não foi possível continuar o login',
  backToSignIn: 'Voltar ao login',
  useEmailInstead:
    'Continue com seu e-mail e sua senha. Se você esqueceu sua senha, pode escolher uma nova lá.',
};

export const zh: ErrorsCatalog = {
  firstNameRequired: '名字为必填项。',
  lastNameRequired: '姓氏为必填项。',
  firstNameTooLong: '名字不能超过 100 个字符。',
  lastNameTooLong: '姓氏不能超过 100 个字符。',
  emailInvalidSignup: '请在上方输入有效的电子邮件地址。',
  passwordRequired: '密码为必填项。',
  confirmPasswordRequired: '必须填写确认密码',
  passwordsDoNotMatch: '两次输入的密码不一致',
  formInvalid: '请更正下方显示的问题后继续。',
  descriptionRequired: '请选择最符合您的身份。',
  emailFormatInvalid: '电子邮件格式无效。',
  workEmailInvalid: '请输入有效的电子邮件地址',
  accessCodeLength: '访问码必须正好是 6 位！',
  verifyEmailParamMissing: '电子邮件参数缺失或无效！',
  verifyCodeParamMissing: '验证码参数缺失或无效！',
  codeRequired: '请输入电子邮件中的 8 位验证码。',
  passwordResetCodeSentPopup: '密码重置码已发送到您的电子邮箱！  请查看收件箱。',
  resetResendSuccess: '新的密码重置码已发送到您的电子邮箱！  请查看收件箱。',
  unknownError: '发生未知错误。',
  invalidVerificationCode: '验证码无效，请重试。',
  invalidCodeRequestAgain: '验证码无效，请重新获取验证码。',
  requestNewVerificationCode: '获取新的验证码',
  accessCodeFailed: '您输入的代码无效。请重试或联系您的老师。',
  accessCodeWrongProviderPrefix: '您输入的代码不适用于',
  workEmailValidationFailed: '电子邮件验证失败。请重试。',
  workEmailNotFound: '我们的系统中找不到该电子邮件。请检查后重试。',
  workEmailAccessDenied: '访问被拒绝。请联系您的管理员。',
  workEmailOtherError: '发生错误。请稍后再试。',
  verifyPageFailure: '暂时无法确认您的访问码。',
  verifyPageSuccess: '您的账户已验证，谢谢！',
  loginParamsFailure: '获取登录参数时发生未知错误',
  authNotInitialized: '身份验证对象未正确初始化，无法进行角色检查！',
  networkError: '无法连接到服务器。请检查网络连接后重试。',
  accountExists: '使用该电子邮件的账户已存在。',
  userNotFound: '找不到该用户名与客户端 ID 的组合。',
  userNotConfirmed: '用户尚未确认。',
  userAlreadyConfirmed: '无法确认用户。当前状态为已确认',
  incorrectCredentials: '用户名或密码不正确。',
  passwordResetRequired: '该用户需要重置密码',
  expiredCode: '验证码无效，请重新获取验证码。',
  attemptLimit: '尝试次数过多，请稍后再试。',
  passwordPolicy: '密码不符合要求：至少 12 个字符，且包含大写字母、小写字母、数字和特殊字符。',
  passwordCommon: '此密码过于常见，或只是在常见密码前后加了几个数字或符号。请换一个。',
  passwordPersonal: '密码不能包含您的姓名或电子邮件地址的任何部分。',
  inviteNotFound: '此邀请链接无效或已过期。',
  inviteAccepted: '此邀请已被接受。请使用其电子邮件地址登录：如果该地址尚未验证，我们会向您发送验证码。',
  loginRequestNotFound: '此登录链接无效或已过期。请从您来自的应用重新开始。',
  accessCodeNotFound: '您输入的代码无效。请重试或联系您的老师。',
  cookieHashInvalid: '此登录链接无效或已过期。',
  returnUrlNotAllowed: '此应用不允许该返回地址。',
  notSignedIn: '您尚未登录。',
  forbidden: '您无权执行此操作。',
  crossSiteRequest: '此请求来自其他网站。请从本门户重新开始。',
  cookiesBlocked:
    '此浏览器阻止了本网站的 Cookie，因此您无法登录。请允许本网站使用 Cookie（或联系学校的 IT 团队），然后重试。',
  badRequest: '请求无效。',
  notFound: '未找到。',
  payloadTooLarge: '请求过大。',
  tooManyRequests: '请求过多。请稍候再试。',
  tooManyFailures: '此账户的失败尝试次数过多。请稍候再试。',
  accountLocked: '由于失败尝试次数过多，此账户已被锁定。账户将在 24 小时内解锁，您的管理员也可以立即解锁。',
  accountDisabled: '此账户已停用。请联系您学校的管理员重新启用。',
  addressFailureLimit: '来自您所在网络的失败尝试次数过多。请稍后再试。',
  codeSendLimit: '发送到此电子邮件地址的验证码过多。请使用您收到的最新验证码，或一小时后再试。',
  resendCooldown: '验证码刚刚已发送。请查看您的电子邮件，或稍等几秒再请求新的验证码。',
  mailRejected: '发往此地址的邮件被拒收。请检查地址是否有拼写错误。',
  mailDelayed: '您的验证码正在发送中，但邮件有所延迟。我们正在重新尝试发送：已发送的验证码送达后仍然有效。',
  accessCodesPaused: '由于错误代码输入次数过多，此应用已暂停使用班级代码登录。请询问您的老师。',
  serverBusy: '服务器繁忙。请几秒钟后再试。',
  serviceProviderAuthFailed: '服务提供方凭据无效。',
  stateInvalid: '此次登录尝试已失效。请重新开始。',
  upstreamFailed: '登录服务提供方无法完成请求。请重试。',
  upstreamRefused: '登录服务提供方未让您登录。请确认您选择了正确的账户，或选择其他登录方式。',
  internalError: '我们这边出了点问题。请稍后再试。',
  signInStopped: '无法继续登录',
  backToSignIn: '返回登录',
  useEmailInstead: '请改用您的电子邮件和密码继续。如果您忘记了密码，可以在那里设置新密码。',
};

export const ar: ErrorsCatalog = {
  firstNameRequired: 'الاسم الأول حقل مطلوب.',
  lastNameRequired: 'اسم العائلة حقل مطلوب.',
  firstNameTooLong: 'يجب ألا يزيد الاسم الأول على 100 حرف.',
  lastNameTooLong: 'يجب ألا يزيد اسم العائلة على 100 حرف.',
  emailInvalidSignup: 'يرجى إدخال عنوان بريد إلكتروني صالح أعلاه.',
  passwordRequired: 'كلمة المرور حقل مطلوب.',
  confirmPasswordRequired: 'تأكيد كلمة المرور مطلوب',
  passwordsDoNotMatch: 'كلمتا المرور غير متطابقتين',
  formInvalid: 'يرجى تصحيح المشكلات الموضحة أدناه للمتابعة.',
  descriptionRequired: 'يرجى اختيار ما يصفك على أفضل وجه.',
  emailFormatInvalid: 'صيغة البريد الإلكتروني غير صالحة.',
  workEmailInvalid: 'يرجى إدخال عنوان بريد إلكتروني صالح',
  accessCodeLength: 'يجب أن يتكون رمز الوصول من 6 أرقام بالضبط!',
  verifyEmailParamMissing: 'معلمة البريد الإلكتروني مفقودة أو غير صالحة!',
  verifyCodeParamMissing: 'معلمة رمز التحقق مفقودة أو غير صالحة!',
  codeRequired: 'يرجى إدخال الرمز المكوّن من 8 أرقام من بريدك الإلكتروني.',
  passwordResetCodeSentPopup:
    'تم إرسال رمز إعادة تعيين كلمة المرور إلى بريدك الإلكتروني!  يرجى التحقق من صندوق الوارد.',
  resetResendSuccess:
    'تم إرسال رمز جديد لإعادة تعيين كلمة المرور إلى بريدك الإلكتروني!  يرجى التحقق من صندوق الوارد.',
  unknownError: 'حدث خطأ غير معروف.',
  invalidVerificationCode: 'رمز التحقق غير صالح، يرجى المحاولة مرة أخرى.',
  invalidCodeRequestAgain: 'الرمز غير صالح، يرجى طلب رمز جديد.',
  requestNewVerificationCode: 'طلب رمز تحقق جديد',
  accessCodeFailed: 'الرمز الذي أدخلته لم ينجح. حاول مرة أخرى أو تواصل مع معلمك.',
  accessCodeWrongProviderPrefix: 'الرمز الذي أدخلته ليس مخصصًا لـ',
  workEmailValidationFailed: 'فشل التحقق من البريد الإلكتروني. يرجى المحاولة مرة أخرى.',
  workEmailNotFound: 'لم يتم العثور على البريد الإلكتروني في نظامنا. يرجى التحقق والمحاولة مرة أخرى.',
  workEmailAccessDenied: 'تم رفض الوصول. يرجى التواصل مع المسؤول.',
  workEmailOtherError: 'حدث خطأ. يرجى المحاولة مرة أخرى لاحقًا.',
  verifyPageFailure: 'تعذّر تأكيد رمز الوصول الخاص بك في الوقت الحالي.',
  verifyPageSuccess: 'تم التحقق من حسابك، شكرًا لك!',
  loginParamsFailure: 'فشل غير معروف أثناء استرداد معلمات تسجيل الدخول',
  authNotInitialized: 'لم تتم تهيئة كائن المصادقة بشكل صحيح، لا يمكن التحقق من الدور!',
  networkError: 'تعذّر الوصول إلى الخادم. تحقق من اتصالك وحاول مرة أخرى.',
  accountExists: 'يوجد حساب بهذا البريد الإلكتروني بالفعل.',
  userNotFound: 'لم يتم العثور على تركيبة اسم المستخدم ومعرّف العميل.',
  userNotConfirmed: 'المستخدم غير مؤكد.',
  userAlreadyConfirmed: 'لا يمكن تأكيد المستخدم. الحالة الحالية: مؤكد',
  incorrectCredentials: 'اسم المستخدم أو كلمة المرور غير صحيحة.',
  passwordResetRequired: 'يجب على المستخدم إعادة تعيين كلمة المرور',
  expiredCode: 'الرمز غير صالح، يرجى طلب رمز جديد.',
  attemptLimit: 'تم تجاوز عدد المحاولات المسموح به، يرجى المحاولة بعد قليل.',
  passwordPolicy:
    'كلمة المرور لا تتوافق مع السياسة: يجب أن تتكون من 12 حرفًا على الأقل وتحتوي على حرف كبير وحرف صغير ورقم ورمز خاص.',
  passwordCommon:
    'كلمة المرور هذه شائعة جدًا، أو هي كلمة مرور شائعة أُضيفت إليها بعض الأرقام أو الرموز. يُرجى اختيار كلمة أخرى.',
  passwordPersonal: 'يجب ألا تحتوي كلمة المرور على اسمك أو على جزء من عنوان بريدك الإلكتروني.',
  inviteNotFound: 'رابط الدعوة هذا غير صالح أو منتهي الصلاحية.',
  inviteAccepted:
    'تم قبول هذه الدعوة بالفعل. سجّل الدخول باستخدام عنوان بريدها الإلكتروني: إذا لم يتم التحقق من العنوان بعد، فسنرسل إليك رمزًا للتحقق منه.',
  loginRequestNotFound:
    'رابط تسجيل الدخول هذا غير صالح أو منتهي الصلاحية. يرجى البدء من جديد من التطبيق الذي جئت منه.',
  accessCodeNotFound: 'الرمز الذي أدخلته لم ينجح. حاول مرة أخرى أو تواصل مع معلمك.',
  cookieHashInvalid: 'رابط تسجيل الدخول هذا غير صالح أو منتهي الصلاحية.',
  returnUrlNotAllowed: 'عنوان العودة غير مسموح به لهذا التطبيق.',
  notSignedIn: 'أنت لم تسجّل الدخول.',
  forbidden: 'غير مسموح لك بالقيام بذلك.',
  crossSiteRequest: 'جاء هذا الطلب من موقع آخر. يُرجى البدء من جديد من هذه البوابة.',
  cookiesBlocked:
    'يحظر هذا المتصفح ملفات تعريف الارتباط لهذا الموقع، لذا لا يمكنك تسجيل الدخول. اسمح بملفات تعريف الارتباط لهذا الموقع (أو اطلب المساعدة من فريق تقنية المعلومات في مدرستك)، ثم حاول مرة أخرى.',
  badRequest: 'الطلب غير صالح.',
  notFound: 'غير موجود.',
  payloadTooLarge: 'الطلب كبير جدًا.',
  tooManyRequests: 'طلبات كثيرة جدًا. يرجى الانتظار قليلًا ثم المحاولة مرة أخرى.',
  tooManyFailures: 'محاولات فاشلة كثيرة جدًا لهذا الحساب. يرجى الانتظار قليلًا ثم المحاولة مرة أخرى.',
  accountLocked:
    'تم قفل هذا الحساب بسبب كثرة المحاولات الفاشلة. يُلغى قفله خلال 24 ساعة، أو يمكن للمسؤول إلغاء قفله الآن.',
  accountDisabled: 'تم إيقاف هذا الحساب. اطلب من مسؤول مدرستك إعادة تفعيله.',
  addressFailureLimit: 'محاولات فاشلة كثيرة جدًا من شبكتك. يرجى المحاولة مرة أخرى لاحقًا.',
  codeSendLimit:
    'تم إرسال عدد كبير جدًا من الرموز إلى عنوان البريد الإلكتروني هذا. يرجى استخدام أحدث رمز تلقيته، أو المحاولة مرة أخرى بعد ساعة.',
  resendCooldown:
    'أُرسل رمز قبل لحظات. يرجى التحقق من بريدك الإلكتروني، أو الانتظار بضع ثوانٍ قبل طلب رمز آخر.',
  mailRejected: 'رُفض البريد المرسل إلى هذا العنوان. يرجى التحقق من عدم وجود أخطاء في كتابته.',
  mailDelayed:
    'رمزك في الطريق، لكن البريد يتأخر. نحاول إرساله مرة أخرى الآن: سيظل الرمز المرسل صالحًا عند وصوله.',
  accessCodesPaused:
    'تم إيقاف تسجيل الدخول برموز الصف مؤقتًا لهذا التطبيق بسبب كثرة الرموز الخاطئة. يرجى سؤال معلمك.',
  serverBusy: 'الخادم مشغول. يرجى المحاولة مرة أخرى بعد بضع ثوانٍ.',
  serviceProviderAuthFailed: 'بيانات اعتماد مزوّد الخدمة غير صالحة.',
  stateInvalid: 'محاولة تسجيل الدخول هذه لم تعد صالحة. يرجى البدء من جديد.',
  upstreamFailed: 'تعذّر على مزوّد تسجيل الدخول إكمال الطلب. يرجى المحاولة مرة أخرى.',
  upstreamRefused:
    'لم يُكمل مزوّد تسجيل الدخول تسجيل دخولك. تحقّق من أنك اخترت الحساب الصحيح، أو اختر طريقة أخرى لتسجيل الدخول.',
  internalError: 'حدث خطأ من جانبنا. يرجى المحاولة مرة أخرى لاحقًا.',
  signInStopped: 'تعذّر متابعة تسجيل الدخول',
  backToSignIn: 'العودة إلى تسجيل الدخول',
  useEmailInstead:
    'تابع باستخدام بريدك الإلكتروني وكلمة المرور بدلاً من ذلك. إذا نسيت كلمة المرور، يمكنك اختيار كلمة جديدة هناك.',
};

export const de: ErrorsCatalog = {
  firstNameRequired: 'Vorname ist ein Pflichtfeld.',
  lastNameRequired: 'Nachname ist ein Pflichtfeld.',
  firstNameTooLong: 'Der Vorname darf höchstens 100 Zeichen lang sein.',
  lastNameTooLong: 'Der Nachname darf höchstens 100 Zeichen lang sein.',
  emailInvalidSignup: 'Bitte geben Sie oben eine gültige E-Mail-Adresse ein.',
  passwordRequired: 'Passwort ist ein Pflichtfeld.',
  confirmPasswordRequired: 'Die Passwortbestätigung ist erforderlich',
  passwordsDoNotMatch: 'Die Passwörter stimmen nicht überein',
  formInvalid: 'Bitte beheben Sie die unten angezeigten Probleme, um fortzufahren.',
  descriptionRequired: 'Bitte wählen Sie aus, was Sie am besten beschreibt.',
  emailFormatInvalid: 'Ungültiges E-Mail-Format.',
  workEmailInvalid: 'Bitte geben Sie eine gültige E-Mail-Adresse ein',
  accessCodeLength: 'Der Zugangscode muss genau 6 Ziffern lang sein!',
  verifyEmailParamMissing: 'Der E-Mail-Parameter fehlte oder war ungültig!',
  verifyCodeParamMissing: 'Der Parameter für den Bestätigungscode fehlte oder war ungültig!',
  codeRequired: 'Bitte geben Sie den 8-stelligen Code aus Ihrer E-Mail ein.',
  passwordResetCodeSentPopup:
    'Ein Code zum Zurücksetzen des Passworts wurde an Ihre E-Mail-Adresse gesendet!  Bitte prüfen Sie Ihren Posteingang.',
  resetResendSuccess:
    'Ein neuer Code zum Zurücksetzen des Passworts wurde an Ihre E-Mail-Adresse gesendet!  Bitte prüfen Sie Ihren Posteingang.',
  unknownError: 'Ein unbekannter Fehler ist aufgetreten.',
  invalidVerificationCode: 'Ungültiger Bestätigungscode, bitte versuchen Sie es erneut.',
  invalidCodeRequestAgain: 'Ungültiger Code, bitte fordern Sie einen neuen Code an.',
  requestNewVerificationCode: 'Neuen Bestätigungscode anfordern',
  accessCodeFailed:
    'Der eingegebene Code hat nicht funktioniert. Versuchen Sie es erneut oder wenden Sie sich an Ihre Lehrkraft.',
  accessCodeWrongProviderPrefix: 'Der eingegebene Code gilt nicht für',
  workEmailValidationFailed:
    'Die Prüfung der E-Mail-Adresse ist fehlgeschlagen. Bitte versuchen Sie es erneut.',
  workEmailNotFound:
    'Die E-Mail-Adresse wurde in unserem System nicht gefunden. Bitte prüfen Sie sie und versuchen Sie es erneut.',
  workEmailAccessDenied: 'Zugriff verweigert. Bitte wenden Sie sich an Ihren Administrator.',
  workEmailOtherError: 'Ein Fehler ist aufgetreten. Bitte versuchen Sie es später erneut.',
  verifyPageFailure: 'Ihr Zugangscode konnte derzeit nicht bestätigt werden.',
  verifyPageSuccess: 'Ihr Konto wurde bestätigt, vielen Dank!',
  loginParamsFailure: 'Unbekannter Fehler beim Abrufen der Anmeldeparameter',
  authNotInitialized:
    'Das Authentifizierungsobjekt wurde nicht richtig initialisiert, die Rollenprüfung ist nicht möglich!',
  networkError:
    'Wir konnten den Server nicht erreichen. Prüfen Sie Ihre Verbindung und versuchen Sie es erneut.',
  accountExists: 'Es gibt bereits ein Konto mit dieser E-Mail-Adresse.',
  userNotFound: 'Kombination aus Benutzername und Client-ID nicht gefunden.',
  userNotConfirmed: 'Der Benutzer ist nicht bestätigt.',
  userAlreadyConfirmed: 'Der Benutzer kann nicht bestätigt werden. Aktueller Status: BESTÄTIGT',
  incorrectCredentials: 'Falscher Benutzername oder falsches Passwort.',
  passwordResetRequired: 'Für diesen Benutzer ist ein Zurücksetzen des Passworts erforderlich',
  expiredCode: 'Ungültiger Code, bitte fordern Sie einen neuen Code an.',
  attemptLimit: 'Die maximale Anzahl an Versuchen wurde überschritten, bitte versuchen Sie es später erneut.',
  passwordPolicy:
    'Das Passwort entspricht nicht den Richtlinien: Es muss mindestens 12 Zeichen, einen Großbuchstaben, einen Kleinbuchstaben, eine Ziffer und ein Sonderzeichen enthalten.',
  passwordCommon:
    'Dieses Passwort ist zu gebräuchlich oder ein gebräuchliches Passwort mit einigen angehängten Ziffern oder Symbolen. Bitte wählen Sie ein anderes.',
  passwordPersonal: 'Das Passwort darf weder Ihren Namen noch einen Teil Ihrer E-Mail-Adresse enthalten.',
  inviteNotFound: 'Dieser Einladungslink ist ungültig oder abgelaufen.',
  inviteAccepted:
    'Diese Einladung wurde bereits angenommen. Melden Sie sich mit ihrer E-Mail-Adresse an: Ist die Adresse noch nicht bestätigt, senden wir Ihnen einen Code, um sie zu bestätigen.',
  loginRequestNotFound:
    'Dieser Anmeldelink ist ungültig oder abgelaufen. Bitte beginnen Sie erneut in der Anwendung, von der Sie gekommen sind.',
  accessCodeNotFound:
    'Der eingegebene Code hat nicht funktioniert. Versuchen Sie es erneut oder wenden Sie sich an Ihre Lehrkraft.',
  cookieHashInvalid: 'Dieser Anmeldelink ist ungültig oder abgelaufen.',
  returnUrlNotAllowed: 'Die Rücksprungadresse ist für diese Anwendung nicht zulässig.',
  notSignedIn: 'Sie sind nicht angemeldet.',
  forbidden: 'Sie sind dazu nicht berechtigt.',
  crossSiteRequest:
    'Diese Anfrage kam von einer anderen Website. Bitte beginnen Sie erneut auf diesem Portal.',
  cookiesBlocked:
    'Dieser Browser blockiert Cookies für diese Website, daher können Sie sich nicht anmelden. Erlauben Sie Cookies für diese Website (oder wenden Sie sich an die IT Ihrer Schule) und versuchen Sie es dann erneut.',
  badRequest: 'Die Anfrage ist ungültig.',
  notFound: 'Nicht gefunden.',
  payloadTooLarge: 'Die Anfrage ist zu groß.',
  tooManyRequests: 'Zu viele Anfragen. Bitte warten Sie einen Moment und versuchen Sie es erneut.',
  tooManyFailures:
    'Zu viele fehlgeschlagene Versuche für dieses Konto. Bitte warten Sie kurz und versuchen Sie es erneut.',
  accountLocked:
    'Dieses Konto wurde nach zu vielen fehlgeschlagenen Versuchen gesperrt. Es wird innerhalb von 24 Stunden automatisch entsperrt, oder Ihr Administrator kann es sofort entsperren.',
  accountDisabled:
    'Dieses Konto ist deaktiviert. Bitten Sie die Administration Ihrer Schule, es wieder zu aktivieren.',
  addressFailureLimit:
    'Zu viele fehlgeschlagene Versuche aus Ihrem Netzwerk. Bitte versuchen Sie es später erneut.',
  codeSendLimit:
    'Es wurden zu viele Codes an diese E-Mail-Adresse gesendet. Bitte verwenden Sie den zuletzt erhaltenen Code oder versuchen Sie es in einer Stunde erneut.',
  resendCooldown:
    'Gerade wurde ein Code gesendet. Bitte sehen Sie in Ihren E-Mails nach oder warten Sie einige Sekunden, bevor Sie einen neuen anfordern.',
  mailRejected: 'E-Mails an diese Adresse werden abgelehnt. Bitte prüfen Sie sie auf Tippfehler.',
  mailDelayed:
    'Ihr Code ist unterwegs, aber die E-Mail verzögert sich. Wir versuchen jetzt erneut, ihn zu senden: Der gesendete Code gilt weiterhin, wenn er ankommt.',
  accessCodesPaused:
    'Die Anmeldung mit Klassencodes ist für diese Anwendung nach zu vielen falschen Codes pausiert. Bitte wenden Sie sich an Ihre Lehrkraft.',
  serverBusy: 'Der Server ist ausgelastet. Bitte versuchen Sie es in einigen Sekunden erneut.',
  serviceProviderAuthFailed: 'Die Zugangsdaten des Dienstanbieters sind ungültig.',
  stateInvalid: 'Dieser Anmeldeversuch ist nicht mehr gültig. Bitte beginnen Sie von vorn.',
  upstreamFailed: 'Der Anmeldeanbieter konnte die Anfrage nicht abschließen. Bitte versuchen Sie es erneut.',
  upstreamRefused:
    'Der Anmeldeanbieter hat Sie nicht angemeldet. Prüfen Sie, ob Sie das richtige Konto gewählt haben, oder wählen Sie eine andere Anmeldemethode.',
  internalError: 'Bei uns ist etwas schiefgelaufen. Bitte versuchen Sie es später erneut.',
  signInStopped: 'Die Anmeldung konnte nicht fortgesetzt werden',
  backToSignIn: 'Zurück zur Anmeldung',
  useEmailInstead:
    'Fahren Sie stattdessen mit Ihrer E-Mail-Adresse und Ihrem Passwort fort. Wenn Sie Ihr Passwort vergessen haben, können Sie dort ein neues wählen.',
};
