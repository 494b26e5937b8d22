import type * as common from './catalogs/common.ts';

/**
 * index.html's notice to a browser without JavaScript, in each bundled language: the build writes it
 * into each prerendered page (build/prerender.ts). Not a runtime catalog: a page that runs never shows
 * it, so no language's download carries it.
 */
// keyed like the catalogs, every bundled language
export const NOSCRIPT_NOTICE: Record<keyof typeof common, string> = {
  en: 'This sign-in page needs JavaScript. Please turn JavaScript on in your browser settings and reload the page.',
  es: 'Esta página de inicio de sesión necesita JavaScript. Actívalo en la configuración de tu navegador y vuelve a cargar la página.',
  fr: 'Cette page de connexion a besoin de JavaScript. Activez JavaScript dans les paramètres de votre navigateur, puis rechargez la page.',
  pt: 'Esta página de login precisa de JavaScript. Ative o JavaScript nas configurações do seu navegador e recarregue a página.',
  zh: '此登录页面需要 JavaScript。请在浏览器设置中启用 JavaScript，然后重新加载页面。',
  ar: 'تحتاج صفحة تسجيل الدخول هذه إلى JavaScript. يُرجى تفعيل JavaScript في إعدادات المتصفح ثم إعادة تحميل الصفحة.',
  de: 'Diese Anmeldeseite benötigt JavaScript. Bitte aktivieren Sie JavaScript in den Einstellungen Ihres Browsers und laden Sie die Seite neu.',
};
