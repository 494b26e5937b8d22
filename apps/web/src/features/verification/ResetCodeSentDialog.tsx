import { useNavigate } from 'react-router';
import { useLaterTranslation } from '../../lib/i18n/use-later-translation.ts';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import pageStyles from '../../ui/Page.module.css';
import { useCallError } from '../shared/use-call-error.ts';
import type { CodeSentState } from '../shared/code-sent.ts';
import { codeEntryPath } from './code-entry.ts';

/**
 * §4: a resend whose result is password_reset shows the popup 'A password reset code has been sent
 * to your email!  Please check your email inbox.'; closing it leads to where that code is typed,
 * /forgot-password (for the address this tab remembers), whose countdown starts from when it was mailed.
 */
export function ResetCodeSentDialog({ sentAt }: { sentAt: number | null }) {
  const { t } = useLaterTranslation('verification');
  const { messageText } = useCallError();
  const navigate = useNavigate();
  const close = () =>
    navigate(codeEntryPath('password_reset'), {
      state: { codeSentAt: sentAt ?? Date.now() } satisfies CodeSentState,
    });
  return (
    <Dialog
      open={sentAt !== null}
      onOpenChange={(open) => {
        if (!open) close();
      }}
      title={t('popup_title')}
      description={messageText({ code: 'passwordResetCodeSentPopup' })}
    >
      <div className={pageStyles.actions}>
        <Button onClick={close}>{t('popup_ok')}</Button>
      </div>
    </Dialog>
  );
}
