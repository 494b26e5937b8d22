import { Fragment } from 'react';
import type { ReactNode } from 'react';

/**
 * §5 nl2br: every line break (\n, \r\n, \r) becomes a <br> element. The text stays text (React
 * escapes it); nothing is ever injected as HTML.
 */
export function nl2br(text: string): ReactNode[] {
  return text.split(/\r\n|\r|\n/).map((line, index) => (
    <Fragment key={index}>
      {index > 0 && <br />}
      {line}
    </Fragment>
  ));
}
