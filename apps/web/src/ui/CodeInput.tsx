import { useState } from 'react';
import type { ClipboardEvent, ReactNode, Ref } from 'react';
import { useTranslation } from '../lib/i18n/use-translation.tsx';
import { EMAIL_CODE_LENGTH, RESEND_COOLDOWN_SECONDS, normalizeDigits } from '@frontdoor/contract';
import { Button } from './Button.tsx';
import { FieldFrame, useFieldIds } from './Field.tsx';
import { useCountdown } from './use-countdown.ts';
import styles from './Field.module.css';

/**
 * What a code field keeps of typed, pasted or autofilled text: digits of any script as ASCII (a phone
 * set to Arabic or Persian types ١٢٣), no spaces/dashes; digits only unless alphanumeric.
 */
export function sanitizeCode(raw: string, length: number, alphanumeric: boolean): string {
  const ascii = normalizeDigits(raw);
  const kept = alphanumeric ? ascii.replace(/[^0-9a-z]/gi, '') : ascii.replace(/\D/g, '');
  return kept.slice(0, length);
}

export interface CodeInputProps {
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  /** Characters of the code (emailed codes and access codes: 6). */
  length?: number;
  /** Access codes may hold letters; emailed codes are digits only (numeric keyboard on phones). */
  alphanumeric?: boolean;
  hint?: ReactNode;
  error?: ReactNode;
  /** Id of the server's refusal of the code shown elsewhere (a wrong code): FieldMessages.refusalId. */
  refusalId?: string;
  name?: string;
  id?: string;
  autoFocus?: boolean;
  onBlur?: () => void;
  /** When given, a "send a new code" button appears; after each use it waits `resendCooldownSeconds`. */
  onResend?: () => void | Promise<void>;
  /** The question the resend button answers ("Didn't get the email?"), shown before it and describing it. */
  resendPrompt?: ReactNode;
  resendLabel?: ReactNode;
  resendCooldownSeconds?: number;
  /** Start with the cooldown running (a code was just sent). */
  startInCooldown?: boolean;
  ref?: Ref<HTMLInputElement>;
}

/**
 * THE code-entry field for every code (email verification, password reset, classroom access code):
 * one input with autocomplete="one-time-code" so phones offer the code from the message, paste of a
 * spaced or dashed code, and an optional resend with a visible countdown. The resend button is
 * described by its prompt and the countdown (which is no live region: it would be read every second);
 * when the countdown ends, a polite status says once that a new code can be asked for.
 */
export function CodeInput({
  label,
  value,
  onChange,
  length = EMAIL_CODE_LENGTH,
  alphanumeric = false,
  hint,
  error,
  refusalId,
  name,
  id,
  autoFocus,
  onBlur,
  onResend,
  resendPrompt,
  resendLabel,
  resendCooldownSeconds = RESEND_COOLDOWN_SECONDS,
  startInCooldown = false,
  ref,
}: CodeInputProps) {
  const { t } = useTranslation('common');
  const ids = useFieldIds(id, { hint, error, refusalId });
  const { secondsLeft, start } = useCountdown(startInCooldown ? resendCooldownSeconds : 0);
  const [resending, setResending] = useState(false);
  // a countdown has run: its end is announced (not the button's being there from the start)
  const [countedDown, setCountedDown] = useState(startInCooldown);
  const promptId = `${ids.inputId}-resend-prompt`;
  const waitId = `${ids.inputId}-resend-wait`;
  const waiting = secondsLeft > 0;
  const resendDescribedBy = [resendPrompt ? promptId : null, waiting ? waitId : null]
    .filter(Boolean)
    .join(' ');

  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    onChange(sanitizeCode(event.clipboardData.getData('text'), length, alphanumeric));
  };

  const resend = async () => {
    if (!onResend) return;
    setResending(true);
    try {
      await onResend();
      start(resendCooldownSeconds);
      setCountedDown(true);
    } finally {
      setResending(false);
    }
  };

  return (
    <FieldFrame label={label} hint={hint} error={error} ids={ids}>
      <div className={styles.control}>
        <input
          {...ids.aria}
          ref={ref}
          id={ids.inputId}
          name={name}
          className={`${styles.input} ${styles.code}`}
          type="text"
          // read and typed left to right in every language, as the mail shows it
          dir="ltr"
          value={value}
          autoComplete="one-time-code"
          inputMode={alphanumeric ? 'text' : 'numeric'}
          autoCapitalize={alphanumeric ? 'characters' : 'off'}
          spellCheck={false}
          pattern={alphanumeric ? undefined : '[0-9]*'}
          maxLength={length}
          autoFocus={autoFocus}
          onBlur={onBlur}
          onPaste={onPaste}
          onChange={(event) => onChange(sanitizeCode(event.target.value, length, alphanumeric))}
        />
      </div>
      {onResend && (
        <div className={styles.resend}>
          {resendPrompt && <span id={promptId}>{resendPrompt}</span>}
          <Button
            variant="link"
            onClick={resend}
            loading={resending}
            disabled={waiting}
            aria-describedby={resendDescribedBy || undefined}
          >
            {resendLabel ?? t('resend_code')}
          </Button>
          {waiting && <span id={waitId}>{t('resend_wait', { seconds: secondsLeft })}</span>}
          <span role="status" className="visually-hidden">
            {countedDown && !waiting && t('resend_ready')}
          </span>
        </div>
      )}
    </FieldFrame>
  );
}
