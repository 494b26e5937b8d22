import { useState } from 'react';
import { flushSync } from 'react-dom';
import { useMutation } from '../../lib/query.ts';
import { useTranslation } from '../../lib/i18n/use-translation.tsx';
import { realmBody } from '@frontdoor/contract';
import type { UpstreamProvider } from '@frontdoor/contract';
import type * as z from 'zod/mini';
import { useConfig } from '../../lib/config.tsx';
import { useForm } from '../../lib/form.ts';
import { ApiError } from '../../lib/http.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { TextField } from '../../ui/TextField.tsx';
import pageStyles from '../../ui/Page.module.css';
import { microsoftUserRealm } from '../shared/api.ts';
import styles from '../shared/flow.module.css';
import { useCallError } from '../shared/use-call-error.ts';
import type { ShownMessage } from '../shared/shown-message.ts';
import { providerForRealmAnswer, workEmailErrorMessage } from './work-email.ts';

type WorkEmailForm = z.input<typeof realmBody>;

/** §4 work/school email modal: pattern check, realm lookup, then the matching Microsoft provider. */
export function WorkEmailDialog({
  open,
  onOpenChange,
  onProvider,
  busy,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onProvider: (provider: UpstreamProvider, email: string) => void;
  busy: boolean;
}) {
  const { t } = useTranslation('login');
  const cfg = useConfig();
  const { messageText } = useCallError();
  const [callError, setCallError] = useState<ShownMessage | null>(null);
  const form = useForm({ schema: realmBody, defaultValues: { email: '' } as WorkEmailForm });
  const realm = useMutation({
    mutationFn: (email: string) => microsoftUserRealm(cfg, email),
    onSuccess: (answer, email) => onProvider(providerForRealmAnswer(answer), email.trim()),
    onError: (error) =>
      setCallError(
        error instanceof ApiError
          ? workEmailErrorMessage(error.httpStatus, error.msg, error.code)
          : workEmailErrorMessage(undefined, undefined),
      ),
  });
  const emailError = form.errors.email?.message;
  const pending = realm.isPending || busy;
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('work_email_title')}
      description={t('work_email_description')}
    >
      {callError && (
        <Alert tone="error" focusKey={callError}>
          {messageText(callError)}
        </Alert>
      )}
      <form
        method="post"
        noValidate
        className={styles.form}
        onSubmit={(event) => {
          // every submit, valid or not, replaces the last call's refusal
          setCallError(null);
          const field = event.currentTarget.querySelector('input');
          let refused = false;
          // rendered before the focus moves, so the field is read with its refusal as it takes it
          flushSync(() =>
            form.handleSubmit(
              ({ email }) => {
                if (!pending) realm.mutate(email);
              },
              () => (refused = true),
            )(event),
          );
          if (refused) field?.focus();
        }}
      >
        <TextField
          label={t('work_email_label')}
          type="email"
          autoComplete="email"
          error={emailError ? messageText(emailError) : undefined}
          {...form.register('email')}
        />
        <div className={pageStyles.actions}>
          <Button type="submit" loading={pending}>
            {t('work_email_submit')}
          </Button>
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            {t('work_email_cancel')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
