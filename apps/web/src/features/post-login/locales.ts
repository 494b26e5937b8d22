/** Namespace 'postLogin': the student question and email preferences. Keys pref_<id> follow contract EMAIL_PREFERENCES. */
export const en = {
  loading: 'Loading',
  student_question: 'Are you a Student?',
  yes: 'Yes',
  no: 'No',
  next: 'Next',
  choose_answer: 'Please choose Yes or No.',
  sign_in_again: 'Sign in again',
  preferences_title: 'Email preferences',
  preferences_intro: 'Which topics would you like to hear about from us?',
  preferences_unread:
    'Your saved choices could not be loaded. A topic you tick is added; the others stay as they were.',
  pref_k12: 'K12',
  pref_careerTechnicalEducation: 'Career & Technical Education',
  pref_collegeUniversity: 'College & University',
  pref_technicalUpdates: 'Technical Updates',
  done: 'Done',
};

export type PostLoginCatalog = Record<keyof typeof en, string>;

export const es: PostLoginCatalog = {
  loading: 'Cargando',
  student_question: '¿Eres estudiante?',
  yes: 'Sí',
  no: 'No',
  next: 'Siguiente',
  choose_answer: 'Elige Sí o No.',
  sign_in_again: 'Volver a iniciar sesión',
  preferences_title: 'Preferencias de correo',
  preferences_intro: '¿Sobre qué temas te gustaría recibir noticias?',
  preferences_unread:
    'No se pudieron cargar tus preferencias guardadas. Un tema que marques se añade; los demás quedan como estaban.',
  pref_k12: 'Educación K12',
  pref_careerTechnicalEducation: 'Educación técnica y profesional',
  pref_collegeUniversity: 'Universidad y educación superior',
  pref_technicalUpdates: 'Novedades técnicas',
  done: 'Listo',
};

export const fr: PostLoginCatalog = {
  loading: 'Chargement',
  student_question: 'Êtes-vous élève ou étudiant ?',
  yes: 'Oui',
  no: 'Non',
  next: 'Suivant',
  choose_answer: 'Veuillez choisir Oui ou Non.',
  sign_in_again: 'Se reconnecter',
  preferences_title: 'Préférences d’e-mail',
  preferences_intro: 'Sur quels sujets souhaitez-vous recevoir nos nouvelles ?',
  preferences_unread:
    'Vos choix enregistrés n’ont pas pu être chargés. Un sujet que vous cochez est ajouté, les autres restent tels quels.',
  pref_k12: 'Primaire et secondaire (K12)',
  pref_careerTechnicalEducation: 'Enseignement technique et professionnel',
  pref_collegeUniversity: 'Enseignement supérieur',
  pref_technicalUpdates: 'Actualités techniques',
  done: 'Terminé',
};

export const pt: PostLoginCatalog = {
  loading: 'Carregando',
  student_question: 'Você é aluno?',
  yes: 'Sim',
  no: 'Não',
  next: 'Próximo',
  choose_answer: 'Escolha Sim ou Não.',
  sign_in_again: 'Entrar novamente',
  preferences_title: 'Preferências de e-mail',
  preferences_intro: 'Sobre quais temas você gostaria de receber novidades?',
  preferences_unread:
    'Não foi possível carregar suas escolhas salvas. Um tema que você marcar é adicionado; os outros ficam como estavam.',
  pref_k12: 'Educação básica (K12)',
  pref_careerTechnicalEducation: 'Educação técnica e profissional',
  pref_collegeUniversity: 'Ensino superior',
  pref_technicalUpdates: 'Atualizações técnicas',
  done: 'Concluir',
};

export const zh: PostLoginCatalog = {
  loading: '加载中',
  student_question: '您是学生吗？',
  yes: '是',
  no: '否',
  next: '下一步',
  choose_answer: '请选择“是”或“否”。',
  sign_in_again: '重新登录',
  preferences_title: '邮件偏好',
  preferences_intro: '您希望收到哪些主题的资讯？',
  preferences_unread: '无法加载您已保存的选择。您勾选的主题会被添加，其他主题保持不变。',
  pref_k12: 'K12 基础教育',
  pref_careerTechnicalEducation: '职业与技术教育',
  pref_collegeUniversity: '高等教育',
  pref_technicalUpdates: '技术更新',
  done: '完成',
};

export const ar: PostLoginCatalog = {
  loading: 'جارٍ التحميل',
  student_question: 'هل أنت طالب؟',
  yes: 'نعم',
  no: 'لا',
  next: 'التالي',
  choose_answer: 'يُرجى اختيار نعم أو لا.',
  sign_in_again: 'تسجيل الدخول مرة أخرى',
  preferences_title: 'تفضيلات البريد الإلكتروني',
  preferences_intro: 'ما الموضوعات التي تودّ أن تصلك أخبارها؟',
  preferences_unread:
    'تعذّر تحميل اختياراتك المحفوظة. يُضاف الموضوع الذي تختاره، وتبقى المواضيع الأخرى كما هي.',
  pref_k12: 'التعليم من الروضة حتى الثانوية (K12)',
  pref_careerTechnicalEducation: 'التعليم المهني والتقني',
  pref_collegeUniversity: 'الكليات والجامعات',
  pref_technicalUpdates: 'التحديثات التقنية',
  done: 'تم',
};

export const de: PostLoginCatalog = {
  loading: 'Wird geladen',
  student_question: 'Sind Sie Schülerin oder Schüler?',
  yes: 'Ja',
  no: 'Nein',
  next: 'Weiter',
  choose_answer: 'Bitte wählen Sie „Ja“ oder „Nein“.',
  sign_in_again: 'Erneut anmelden',
  preferences_title: 'E-Mail-Einstellungen',
  preferences_intro: 'Über welche Themen möchten Sie von uns informiert werden?',
  preferences_unread:
    'Ihre gespeicherten Einstellungen konnten nicht geladen werden. Ein Thema, das Sie ankreuzen, wird hinzugefügt; die anderen bleiben, wie sie sind.',
  pref_k12: 'Allgemeinbildende Schulen (K12)',
  pref_careerTechnicalEducation: 'Berufliche Bildung',
  pref_collegeUniversity: 'Hochschule und Universität',
  pref_technicalUpdates: 'Technische Neuigkeiten',
  done: 'Fertig',
};
