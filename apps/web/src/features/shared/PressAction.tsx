import type { ReactNode } from 'react';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import pageStyles from '../../ui/Page.module.css';
import { useMessageText } from './messages.ts';
import type { ShownMessage } from './shown-message.ts';

export interface PressActionProps {
  /** The last press's refusal: it takes the focus each time it changes, as a form's does. */
  refusal: ShownMessage | null;
  busy: boolean;
  onPress: () => void;
  label: string;
  /** The page's other ways on, beside the button (a Cancel link). */
  children?: ReactNode;
}

/** A page's one call a person makes by a press (no form): the button, its refusal above it. */
export function PressAction({ refusal, busy, onPress, label, children }: PressActionProps) {
  const messageText = useMessageText();
  return (
    <>
      {refusal && (
        <Alert tone="error" focusKey={refusal}>
          {messageText(refusal)}
        </Alert>
      )}
      <div className={pageStyles.actions}>
        <Button loading={busy} onClick={onPress}>
          {label}
        </Button>
        {children}
      </div>
    </>
  );
}
