import { Suspense, useEffect, useRef, useState, type ComponentType } from 'react';
import { isProduction } from '@frontdoor/contract';
import { useConfig } from '../lib/config.tsx';
import { TimeoutError } from '../lib/http.ts';
import { useHydrated } from '../lib/hydrated.ts';
import { useFatalError } from '../lib/use-fatal-error.ts';
import { Outlet } from 'react-router';
import { useTranslation } from '../lib/i18n/use-translation.tsx';
import { PressHeldAgain } from '../lib/held-presses.ts';
import { AnnounceContext } from '../ui/announce.ts';
import { Spinner } from '../ui/Spinner.tsx';
import { Footer } from './Footer.tsx';
import { TopBar } from './TopBar.tsx';
import { useLocaleParam } from './locale-param.ts';
import { PageAnnouncer, StepArrivalProvider, usePageArrival } from './page-arrival.tsx';
import { usePageKey, useReloadPageData } from './page-key.ts';
import { useNavigationScroll } from './scroll.ts';
import styles from './Shell.module.css';

const MAIN_ID = 'main';

/**
 * §2's environment stamp, once the page is hydrated (it is never prerendered); a production page never
 * downloads it. A component of its own: switching it on re-renders it alone, not the shell around the
 * page, which would make React hydrate the page in one blocking task instead of in slices. Imported
 * in an effect, not by lazy(): a Suspense fallback shown while the chunk loads would hold back
 * React's next reveal of the page by 300 ms (its fallback throttle), and so the page's hydration.
 */
function EnvStampAfterHydration() {
  const hydrated = useHydrated();
  const [EnvStamp, setEnvStamp] = useState<ComponentType | null>(null);
  useEffect(() => {
    if (!hydrated) return;
    let current = true;
    void import('./EnvStamp.tsx').then(({ default: stamp }) => current && setEnvStamp(() => stamp));
    return () => {
      current = false;
    };
  }, [hydrated]);
  return EnvStamp ? <EnvStamp /> : null;
}

/**
 * The spinner of a page whose chunk is on its way. A chunk that has not come within the request
 * timeout is a timeout like a call's: /error-timeout (in the first bundle), with the route's {csrf}.
 */
function PageLoading() {
  const { requestTimeoutMs } = useConfig();
  const onFatal = useFatalError();
  useEffect(() => {
    const timer = setTimeout(() => onFatal(new TimeoutError(requestTimeoutMs)), requestTimeoutMs);
    return () => clearTimeout(timer);
  }, [requestTimeoutMs, onFatal]);
  return (
    <div className={styles.loading}>
      <Spinner />
    </div>
  );
}

/** The shell of §1/§2 around every routed page. */
export function ShellLayout() {
  const { t } = useTranslation('common');
  const pageKey = usePageKey();
  useReloadPageData(pageKey);
  useNavigationScroll();
  const mainRef = useRef<HTMLElement>(null);
  const { announcements, arriveAtStep, say } = usePageArrival(pageKey, mainRef);
  useLocaleParam();
  const production = isProduction(useConfig());
  return (
    <div className={styles.shell}>
      <a className={styles.skip} href={`#${MAIN_ID}`}>
        {t('skip_to_content')}
      </a>
      <TopBar />
      <main ref={mainRef} id={MAIN_ID} className={styles.main} tabIndex={-1}>
        {/* a boundary per page: a navigation is a transition, which keeps a boundary's content on
            screen while the next page's chunk loads, so the page before, its form still working,
            would stay under the new URL (for good, from a frozen server); a new boundary shows the
            spinner instead */}
        <Suspense key={pageKey} fallback={<PageLoading />}>
          <StepArrivalProvider value={arriveAtStep}>
            <AnnounceContext value={say}>
              <Outlet />
            </AnnounceContext>
          </StepArrivalProvider>
          {/* inside the page's boundary: React hydrates a boundary on its own, and an element of it
              has its props before the boundary commits; this effect runs once it has */}
          <PressHeldAgain />
        </Suspense>
      </main>
      <PageAnnouncer announcements={announcements} />
      <Footer />
      {!production && <EnvStampAfterHydration />}
    </div>
  );
}
