import { useEffect } from 'react';
import type { ConfigError } from '../lib/config.tsx';
import { Button } from '../ui/Button.tsx';
import styles from '../ui/Page.module.css';

const TITLE = 'This page cannot load right now';

/**
 * Shown when config.json is missing or malformed. It renders before translation is set up (the
 * config says which translation service to use), so its text is English, and says so: inside a
 * page answered in Arabic or German, a screen reader would read it in that voice, right to left.
 */
export function ConfigErrorPage({ error }: { error: ConfigError | null }) {
  useEffect(() => {
    document.title = TITLE;
  }, []);
  return (
    <main className={styles.page} lang="en" dir="ltr">
      <section className={styles.card} aria-labelledby="config-error-title">
        <h1 className={styles.title} id="config-error-title">
          {TITLE}
        </h1>
        <p className={styles.lead}>{error?.message ?? 'The configuration file could not be loaded.'}</p>
        <p>Please try again in a few minutes. If this keeps happening, contact the site’s support team.</p>
        {error?.detail && (
          <p>
            <small>Technical detail: {error.detail}</small>
          </p>
        )}
        <p>
          <Button onClick={() => window.location.reload()}>Try again</Button>
        </p>
      </section>
    </main>
  );
}
