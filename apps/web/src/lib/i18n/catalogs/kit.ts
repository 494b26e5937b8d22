import { PAGINATOR_LABEL, SEARCH_PLACEHOLDER } from '@frontdoor/contract';

/**
 * Namespace 'kit': the texts of the UI kit's widgets no first page shows (search, pagination), a
 * later namespace (resources.ts): no sign-in's first load carries them. English is the source.
 */
export const en = {
  search_label: 'Search',
  search_placeholder: SEARCH_PLACEHOLDER,
  paginator_label: PAGINATOR_LABEL,
  paginator_range: '{{from}}–{{to}} of {{total}}',
  paginator_previous: 'Previous page',
  paginator_next: 'Next page',
};

export type KitCatalog = Record<keyof typeof en, string>;

export const es: KitCatalog = {
  search_label: 'Buscar',
  search_placeholder: 'Ir a...',
  paginator_label: 'Elementos por página:',
  paginator_range: '{{from}}–{{to}} de {{total}}',
  paginator_previous: 'Página anterior',
  paginator_next: 'Página siguiente',
};

export const fr: KitCatalog = {
  search_label: 'Rechercher',
  search_placeholder: 'Aller à...',
  paginator_label: 'Éléments par page :',
  paginator_range: '{{from}}–{{to}} sur {{total}}',
  paginator_previous: 'Page précédente',
  paginator_next: 'Page suivante',
};

export const pt: KitCatalog = {
  search_label: 'Pesquisar',
  search_placeholder: 'Ir para...',
  paginator_label: 'Itens por página:',
  paginator_range: '{{from}}–{{to}} de {{total}}',
  paginator_previous: 'Página anterior',
  paginator_next: 'Próxima página',
};

export const zh: KitCatalog = {
  search_label: '搜索',
  search_placeholder: '跳转到...',
  paginator_label: '每页条数：',
  paginator_range: '第 {{from}}–{{to}} 条，共 {{total}} 条',
  paginator_previous: '上一页',
  paginator_next: '下一页',
};

export const ar: KitCatalog = {
  search_label: 'بحث',
  search_placeholder: 'انتقل إلى...',
  paginator_label: 'عدد العناصر في الصفحة:',
  paginator_range: '{{from}}–{{to}} من {{total}}',
  paginator_previous: 'الصفحة السابقة',
  paginator_next: 'الصفحة التالية',
};

export const de: KitCatalog = {
  search_label: 'Suche',
  search_placeholder: 'Gehe zu...',
  paginator_label: 'Einträge pro Seite:',
  paginator_range: '{{from}}–{{to}} von {{total}}',
  paginator_previous: 'Vorherige Seite',
  paginator_next: 'Nächste Seite',
};
