import { PAGINATOR_LABEL, SEARCH_PLACEHOLDER } from '@frontdoor/contract';

/**
 * Namespace 'kit': the texts of the UI kit's widgets no first page shows (search, pagination, a mailed
 * code's "send a new code"), a later namespace (resources.ts): no sign-in's first load carries them.
 * English is the source.
 */
export const en = {
  search_label: 'Search',
  search_placeholder: SEARCH_PLACEHOLDER,
  paginator_label: PAGINATOR_LABEL,
  paginator_range: '{{from}}–{{to}} of {{total}}',
  paginator_previous: 'Previous page',
  paginator_next: 'Next page',
  resend_code: 'Send a new code',
  resend_wait: 'You can ask for a new code in {{seconds}} s.',
  resend_ready: 'You can ask for a new code now.',
};

export type KitCatalog = Record<keyof typeof en, string>;

export const es: KitCatalog = {
  search_label: 'Buscar',
  search_placeholder: 'Ir a...',
  paginator_label: 'Elementos por página:',
  paginator_range: '{{from}}–{{to}} de {{total}}',
  paginator_previous: 'Página anterior',
  paginator_next: 'Página siguiente',
  resend_code: 'Enviar un código nuevo',
  resend_wait: 'Puedes pedir un código nuevo en {{seconds}} s.',
  resend_ready: 'Ya puedes pedir un código nuevo.',
};

export const fr: KitCatalog = {
  search_label: 'Rechercher',
  search_placeholder: 'Aller à...',
  paginator_label: 'Éléments par page :',
  paginator_range: '{{from}}–{{to}} sur {{total}}',
  paginator_previous: 'Page précédente',
  paginator_next: 'Page suivante',
  resend_code: 'Envoyer un nouveau code',
  resend_wait: 'Vous pourrez demander un nouveau code dans {{seconds}} s.',
  resend_ready: 'Vous pouvez maintenant demander un nouveau code.',
};

export const pt: KitCatalog = {
  search_label: 'Pesquisar',
  search_placeholder: 'Ir para...',
  paginator_label: 'Itens por página:',
  paginator_range: '{{from}}–{{to}} de {{total}}',
  paginator_previous: 'Página anterior',
  paginator_next: 'Próxima página',
  resend_code: 'Enviar um novo código',
  resend_wait: 'Você pode pedir um novo código em {{seconds}} s.',
  resend_ready: 'Agora você pode pedir um novo código.',
};

export const zh: KitCatalog = {
  search_label: '搜索',
  search_placeholder: '跳转到...',
  paginator_label: '每页条数：',
  paginator_range: '第 {{from}}–{{to}} 条，共 {{total}} 条',
  paginator_previous: '上一页',
  paginator_next: '下一页',
  resend_code: '发送新验证码',
  resend_wait: '{{seconds}} 秒后可以重新获取验证码。',
  resend_ready: '现在可以重新获取验证码了。',
};

export const ar: KitCatalog = {
  search_label: 'بحث',
  search_placeholder: 'انتقل إلى...',
  paginator_label: 'عدد العناصر في الصفحة:',
  paginator_range: '{{from}}–{{to}} من {{total}}',
  paginator_previous: 'الصفحة السابقة',
  paginator_next: 'الصفحة التالية',
  resend_code: 'إرسال رمز جديد',
  resend_wait: 'يمكنك طلب رمز جديد بعد {{seconds}} ث.',
  resend_ready: 'يمكنك الآن طلب رمز جديد.',
};

export const de: KitCatalog = {
  search_label: 'Suche',
  search_placeholder: 'Gehe zu...',
  paginator_label: 'Einträge pro Seite:',
  paginator_range: '{{from}}–{{to}} von {{total}}',
  paginator_previous: 'Vorherige Seite',
  paginator_next: 'Nächste Seite',
  resend_code: 'Neuen Code senden',
  resend_wait: 'Sie können in {{seconds}} s einen neuen Code anfordern.',
  resend_ready: 'Sie können jetzt einen neuen Code anfordern.',
};
