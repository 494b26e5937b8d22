import { useEffect, useState } from 'react';
import { useMutation } from '../../lib/query.ts';
import { useTranslation } from '../../lib/i18n/use-translation.tsx';
import { ACCESS_CODE_LENGTH, accessCodeSchema } from '@frontdoor/contract';
import { accessCodeLogin } from '../shared/api.ts';
import { goToUrl } from '../shared/browser.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { PageCard } from '../../ui/PageCard.tsx';
import { CodeField } from '../shared/CodeField.tsx';
import styles from '../shared/flow.module.css';
import { useCodeForm } from '../shared/use-summary-form.tsx';
import { useCallError } from '../shared/use-call-error.ts';
import { useConfig } from '../../lib/config.tsx';
import { ApiError } from '../../lib/http.ts';
import { clearLoginData, confirmSignIn, getLoginCsrf } from '../../lib/storage.ts';
import { useLoginParams } from '../shared/use-login-params.ts';
import { accessCodeRefusal, type AccessCodeRefusal } from './access-code-error.ts';
import { buildCookieUrl } from './cookie-url.ts';
import { LoginLink } from '../shared/LoginLink.tsx';

const CODE_FIELD_ID = 'access-code';
const CALL_ERROR_ID = 'access-code-call-error';

/** /access-code and /access-code/{csrf}: the 6-character classroom code for the login params' sp_id. */
export default function AccessCodePage() {
  const { t } = useTranslation('accessCode');
  const cfg = useConfig();
  const { failure, messageText } = useCallError();
  const { loading, loginParams, error: paramsError } = useLoginParams();
  const [callError, setCallError] = useState<AccessCodeRefusal | null>(null);
  const { form, errorSummary, onSubmit } = useCodeForm(accessCodeSchema, CODE_FIELD_ID, () =>
    setCallError(null),
  );

  const login = useMutation({
    mutationFn: ({ code, spId }: { code: string; spId: string; returnUrl: string }) =>
      accessCodeLogin(cfg, code, spId),
    onSuccess: ({ payload }, { returnUrl }) => {
      // token = the login csrf held for this sign-in request (the address's, saved with its params, in
      // memory when storage refuses it), read before the saved login data is cleared
      const token = getLoginCsrf();
      // the code was accepted: the lost sign-in request is not the field's fault
      if (!token) return setCallError({ message: { code: 'loginRequestNotFound' }, codeRefused: false });
      clearLoginData();
      confirmSignIn('classCode');
      goToUrl(buildCookieUrl(cfg, { hash: payload.cookie_hash, returnUrl, token }));
    },
    onError: (error) => {
      // a timeout or a 5xx has its error page; no answer at all (the Wi-Fi dropped) is said here, the code kept
      const shown = failure(error);
      if (!shown) return;
      setCallError(
        error instanceof ApiError ? accessCodeRefusal(error) : { message: shown, codeRefused: false },
      );
    },
  });

  // a code sent while the sign-in request is still on its way (a slow Chromebook's first seconds, a
  // press made before the page hydrated): sent once it is in, not dropped
  const [held, setHeld] = useState<string | null>(null);
  // a press with no sign-in request to use (no link, or an expired one): the notice saying why takes
  // the focus, once a press, so the press is seen to do something
  const [pressedWithoutLink, setPressedWithoutLink] = useState<object>();
  const send = login.mutate;
  useEffect(() => {
    if (held === null || loading) return;
    setHeld(null);
    if (loginParams) send({ code: held, spId: loginParams.sp_id, returnUrl: loginParams.url });
  }, [held, loading, loginParams, send]);

  const pending = login.isPending || login.isSuccess || held !== null;
  return (
    <PageCard title={t('title')} lead={t('intro')} footer={<LoginLink>{t('other_options')}</LoginLink>}>
      {paramsError && (
        <Alert tone="error" focusKey={pressedWithoutLink}>
          {messageText(paramsError)}
        </Alert>
      )}
      {!loading && !loginParams && !paramsError && (
        <Alert tone="info" focusKey={pressedWithoutLink}>
          {t('no_login_params')}
        </Alert>
      )}
      {errorSummary}
      {callError && (
        <Alert tone="error" id={CALL_ERROR_ID} focusKey={callError}>
          {messageText(callError.message)}
        </Alert>
      )}
      <form
        method="post"
        noValidate
        className={styles.form}
        onSubmit={onSubmit(({ code }) => {
          if (pending) return;
          if (loginParams) login.mutate({ code, spId: loginParams.sp_id, returnUrl: loginParams.url });
          else if (loading) setHeld(code);
          else setPressedWithoutLink({});
        })}
      >
        <CodeField
          form={form}
          id={CODE_FIELD_ID}
          label={t('code_label')}
          length={ACCESS_CODE_LENGTH}
          refusalId={callError?.codeRefused ? CALL_ERROR_ID : undefined}
        />
        <Button type="submit" loading={pending} fullWidth>
          {t('submit')}
        </Button>
      </form>
    </PageCard>
  );
}
