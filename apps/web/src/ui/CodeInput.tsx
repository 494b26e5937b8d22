import { useLayoutEffect, useRef, useState } from 'react';
import type { ClipboardEvent, ReactNode, Ref } from 'react';
import { EMAIL_CODE_LENGTH, normalizeDigits } from '@frontdoor/contract';
import { FieldFrame, useFieldIds } from './Field.tsx';
import styles from './Field.module.css';

/**
 * What a code field keeps of typed, pasted or autofilled text: digits of any script as ASCII (a phone
 * set to Arabic or Persian types ١٢٣), nothing else: every code the portal issues is digits (mailed
 * codes, access codes), so a letter typed is a slip, never a guess counted against a provider.
 */
export function sanitizeCode(raw: string, length: number): string {
  return normalizeDigits(raw).replace(/\D/g, '').slice(0, length);
}

export interface CodeInputProps {
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  /** Characters of the code: a mailed code's EMAIL_CODE_LENGTH (8) unless told (access codes: 6). */
  length?: number;
  hint?: ReactNode;
  error?: ReactNode;
  /** Id of the server's refusal of the code shown elsewhere (a wrong code): FieldMessages.refusalId. */
  refusalId?: string;
  name?: string;
  id?: string;
  autoFocus?: boolean;
  onBlur?: () => void;
  /** A "send a new code" under the field: a CodeResend, with its countdown. */
  resend?: ReactNode;
  ref?: Ref<HTMLInputElement>;
}

/**
 * THE code-entry field for every code (email verification, password reset, classroom access code):
 * one input with autocomplete="one-time-code" so phones offer the code from the message, paste of a
 * spaced or dashed code, and an optional resend with a visible countdown (`resend`: CodeResend).
 */
export function CodeInput({
  label,
  value,
  onChange,
  length = EMAIL_CODE_LENGTH,
  hint,
  error,
  refusalId,
  name,
  id,
  autoFocus,
  onBlur,
  resend,
  ref,
}: CodeInputProps) {
  const ids = useFieldIds(id, { hint, error, refusalId });
  const input = useRef<HTMLInputElement | null>(null);
  // what an IME is composing (a Japanese keyboard's full-width １２３): shown as typed until the
  // composition ends, never rewritten under the IME (which would then insert its text again)
  const [composing, setComposing] = useState<string | null>(null);
  // A code typed before a prerendered page hydrated (a slow Chromebook takes seconds) is the value:
  // React keeps it while hydrating, but the first render after would set the empty value again.
  useLayoutEffect(() => {
    const typed = input.current?.value ?? '';
    if (typed && typed !== value) onChange(sanitizeCode(typed, length));
    // once, as the field appears: later the value comes only through onChange
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const setRefs = (element: HTMLInputElement | null) => {
    input.current = element;
    if (typeof ref === 'function') ref(element);
    else if (ref) ref.current = element;
  };

  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    onChange(sanitizeCode(event.clipboardData.getData('text'), length));
  };

  return (
    <FieldFrame label={label} hint={hint} error={error} ids={ids}>
      <div className={`${styles.control} ${styles.codeControl}`}>
        <input
          {...ids.aria}
          ref={setRefs}
          id={ids.inputId}
          name={name}
          className={`${styles.input} ${styles.code}`}
          type="text"
          // read and typed left to right in every language, as the mail shows it
          dir="ltr"
          value={composing ?? value}
          autoComplete="one-time-code"
          inputMode="numeric"
          autoCapitalize="off"
          spellCheck={false}
          pattern="[0-9]*"
          // no maxLength: it would cut "922 120", inserted at once, to "922 12" before sanitizeCode
          // drops the space (dictation, a keyboard's clipboard suggestion, a drop); sanitizeCode cuts
          autoFocus={autoFocus}
          onBlur={(event) => {
            // a filler that set the value without an input event (a password manager, a one-time-code
            // tool): the next render would put the empty value back and the code be called missing
            const typed = event.target.value;
            if (typed !== value) onChange(sanitizeCode(typed, length));
            onBlur?.();
          }}
          onPaste={onPaste}
          onCompositionStart={(event) => setComposing(event.currentTarget.value)}
          onCompositionEnd={(event) => {
            setComposing(null);
            onChange(sanitizeCode(event.currentTarget.value, length));
          }}
          onChange={(event) => {
            if ((event.nativeEvent as InputEvent).isComposing) setComposing(event.target.value);
            else onChange(sanitizeCode(event.target.value, length));
          }}
        />
      </div>
      {resend}
    </FieldFrame>
  );
}
