import { useId, useState } from 'react';
import type { ReactNode } from 'react';
import { RESEND_COOLDOWN_SECONDS } from '@frontdoor/contract';
import { useLaterTranslation } from '../lib/i18n/use-later-translation.ts';
import { Button } from './Button.tsx';
import { useCountdown } from './use-countdown.ts';
import styles from './Field.module.css';

export interface CodeResendProps {
  /** Mails a new code; a failure is the page's to show (its onError), the countdown runs all the same. */
  onResend: () => Promise<unknown>;
  /** The question the button answers ("Didn't get the email?"), shown before it and describing it. */
  prompt?: ReactNode;
  label?: ReactNode;
  cooldownSeconds?: number;
  /** Seconds to wait before the first resend: what is left of the cooldown of a code sent before. */
  waitSeconds?: number;
}

/**
 * CodeInput's "send a new code" (its `resend`), apart so the code pages that offer none (the access
 * code, on the first page a class sees) download none of it. After each use it waits `cooldownSeconds`
 * with a visible countdown; the button is described by its prompt and the countdown (which is no live
 * region: it would be read every second), and when a countdown ends a polite status says so once.
 */
export function CodeResend({
  onResend,
  prompt,
  label,
  cooldownSeconds = RESEND_COOLDOWN_SECONDS,
  waitSeconds = 0,
}: CodeResendProps) {
  // only the later code pages offer it: its texts come with theirs ('kit'), not in the first load
  const { t } = useLaterTranslation('kit');
  const { secondsLeft, start } = useCountdown(waitSeconds);
  const [resending, setResending] = useState(false);
  // a countdown has run: its end is announced (not the button's being there from the start)
  const [countedDown, setCountedDown] = useState(waitSeconds > 0);
  const promptId = useId();
  const waitId = useId();
  const waiting = secondsLeft > 0;
  const describedBy = [prompt ? promptId : null, waiting ? waitId : null].filter(Boolean).join(' ');

  const resend = async () => {
    setResending(true);
    try {
      await onResend().catch(() => undefined);
      start(cooldownSeconds);
      setCountedDown(true);
    } finally {
      setResending(false);
    }
  };

  return (
    <div className={styles.resend}>
      {prompt && <span id={promptId}>{prompt}</span>}
      <Button
        variant="link"
        onClick={resend}
        loading={resending}
        disabled={waiting}
        aria-describedby={describedBy || undefined}
      >
        {label ?? t('resend_code')}
      </Button>
      {waiting && <span id={waitId}>{t('resend_wait', { seconds: secondsLeft })}</span>}
      <span role="status" className="visually-hidden">
        {countedDown && !waiting && t('resend_ready')}
      </span>
    </div>
  );
}
