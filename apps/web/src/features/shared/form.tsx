import { useTranslation } from '../../lib/i18n/use-translation.tsx';
import type { TFunction } from '../../lib/i18n/translator.ts';
import type { FieldBinding, FieldErrors, FieldValues } from '../../lib/form.ts';
import { MIN_PASSWORD_LENGTH, PASSWORD_FLAGS, passwordFlags } from '@frontdoor/contract';
import type { SummaryError } from '../../ui/FormErrorSummary.tsx';
import { PasswordField } from '../../ui/PasswordField.tsx';
import styles from './flow.module.css';

/**
 * The five password flags of §5 shown live as a checklist while the user types. The list describes
 * the password field (`id`); a polite status repeats how many rules are met, so a screen reader hears
 * progress as it changes (not at each keystroke: the text changes only when a rule flips).
 */
function PasswordChecklist({ password, id }: { password: string; id: string }) {
  const { t } = useTranslation('flowShared');
  const missing = new Set(passwordFlags(password));
  return (
    <>
      <p role="status" className={styles.visuallyHidden}>
        {password &&
          t('rules_status', { met: PASSWORD_FLAGS.length - missing.size, total: PASSWORD_FLAGS.length })}
      </p>
      <div id={id}>
        <p>{t('password_rules_title')}</p>
        <ul className={styles.checklist}>
          {PASSWORD_FLAGS.map((flag) => {
            const met = !missing.has(flag);
            return (
              // an item per state, not its texts changed: page translation shows a copy of each text
              <li
                key={`${flag}:${met}`}
                data-flag={flag}
                data-met={met}
                className={met ? styles.met : styles.unmet}
              >
                <span aria-hidden="true">{met ? '✓ ' : '○ '}</span>
                {t(`rule_${flag}`, { count: MIN_PASSWORD_LENGTH })}
                <span className={styles.visuallyHidden}> ({t(met ? 'rule_met' : 'rule_unmet')})</span>
              </li>
            );
          })}
        </ul>
      </div>
    </>
  );
}

type NewPasswordField = 'pw' | 'confirmPw';

/**
 * A new password (sign-up, reset): the password with its live checklist, then its confirmation,
 * bound to the `pw` and `confirmPw` fields of the page's useSummaryForm. Both are 'new-password' so
 * password managers offer to generate and save it.
 */
export function NewPasswordFields({
  ids,
  t,
  fields: { form, fieldError },
}: {
  ids: Record<NewPasswordField, string>;
  /** The page's own: its namespace has the labels (signup, passwordReset). */
  t: TFunction;
  fields: {
    form: {
      register: (name: NewPasswordField) => FieldBinding;
      watch: (name: 'pw') => string | undefined;
    };
    fieldError: (name: NewPasswordField) => string | undefined;
  };
}) {
  const rulesId = `${ids.pw}-rules`;
  return (
    <>
      <PasswordField
        id={ids.pw}
        label={t('password_label')}
        autoComplete="new-password"
        error={fieldError('pw')}
        describedBy={rulesId}
        {...form.register('pw')}
      />
      <PasswordChecklist password={form.watch('pw') ?? ''} id={rulesId} />
      <PasswordField
        id={ids.confirmPw}
        label={t('confirm_label')}
        autoComplete="new-password"
        error={fieldError('confirmPw')}
        {...form.register('confirmPw')}
      />
    </>
  );
}

/** The error summary's entries: each failing field (in form order) with its translated message. */
export function summaryErrors<T extends FieldValues>(
  errors: FieldErrors<T>,
  fieldIds: Partial<Record<keyof T & string, string>>,
  text: (message: string) => string,
): SummaryError[] {
  return Object.entries(fieldIds).flatMap(([name, fieldId]) => {
    const message = errors[name]?.message;
    return typeof message === 'string' && fieldId ? [{ fieldId, message: text(message) }] : [];
  });
}
