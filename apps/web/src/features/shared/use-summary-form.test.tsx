import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as z from 'zod/mini';
import { messages } from '@frontdoor/contract';
import { renderRoutes } from '../../test/render.tsx';
import { useSummaryForm } from './use-summary-form.tsx';

const nameForm = z.object({
  first: z.string().check(z.trim(), z.minLength(1, messages.firstNameRequired)),
  last: z.string().check(z.trim(), z.minLength(1, messages.lastNameRequired)),
});
const FIELD_IDS = { first: 'first', last: 'last' };

function NameForm({
  long,
  onValid,
  onAttempt,
}: {
  long?: boolean;
  onValid: (v: z.output<typeof nameForm>) => void;
  onAttempt?: () => void;
}) {
  const { form, errorSummary, fieldError, onSubmit } = useSummaryForm(nameForm, {
    defaultValues: { first: '', last: '' },
    fieldIds: FIELD_IDS,
    long,
    onAttempt,
  });
  return (
    <>
      {errorSummary}
      <form noValidate onSubmit={onSubmit(onValid)}>
        <label htmlFor="first">First</label>
        <input id="first" {...form.register('first')} />
        {fieldError('first') && <p>{fieldError('first')}</p>}
        <label htmlFor="last">Last</label>
        <input id="last" {...form.register('last')} />
        <button type="submit">Send</button>
      </form>
    </>
  );
}

const renderForm = (props: Parameters<typeof NameForm>[0]) =>
  renderRoutes([{ path: '/', element: <NameForm {...props} /> }]);

describe('useSummaryForm', () => {
  it('shows no summary before a submit; a failed submit shows it, focused, linking each field in order', async () => {
    const onValid = vi.fn();
    const user = userEvent.setup();
    renderForm({ onValid });
    await user.type(await screen.findByLabelText('First'), ' ');
    expect(screen.queryByRole('alert')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Send' }));
    const summary = await screen.findByRole('alert');
    await waitFor(() => expect(summary).toHaveFocus());
    const links = screen.getAllByRole('link');
    expect(links.map((l) => [l.textContent, l.getAttribute('href')])).toEqual([
      [messages.firstNameRequired, '#first'],
      [messages.lastNameRequired, '#last'],
    ]);
    // the field's own message is the same translated text
    expect(screen.getAllByText(messages.firstNameRequired)).toHaveLength(2);
    expect(summary).not.toHaveTextContent(messages.formInvalid);
    expect(onValid).not.toHaveBeenCalled();

    await user.type(screen.getByLabelText('First'), 'Ada');
    await user.type(screen.getByLabelText('Last'), 'Byron');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(onValid).toHaveBeenCalledTimes(1));
    expect(onValid.mock.calls[0]?.[0]).toEqual({ first: 'Ada', last: 'Byron' });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('between failed submits the summary only loses fields: one fixed and then invalid again while typing is not listed again until the next submit (WCAG 3.2.2, 4.1.3)', async () => {
    const user = userEvent.setup();
    renderForm({ onValid: vi.fn() });
    const first = await screen.findByLabelText('First');
    await user.type(screen.getByLabelText('Last'), 'Byron{Enter}');
    const summary = await screen.findByRole('alert');
    await waitFor(() => expect(summary).toHaveFocus());
    expect(screen.getAllByRole('link').map((link) => link.textContent)).toEqual([messages.firstNameRequired]);
    await user.type(first, 'A');
    expect(screen.queryByRole('alert')).toBeNull();
    // its own error is back under it; the alert, read out at each addition, is not
    await user.clear(first);
    expect(screen.getByText(messages.firstNameRequired)).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(first).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(messages.firstNameRequired);
  });

  it('a long form submitted by a pointer press lists every field the submit refused, not only those shown when the press began', async () => {
    const user = userEvent.setup();
    renderForm({ onValid: vi.fn(), long: true });
    // the first field left empty shows its error; the last, left by the press itself, none yet
    await user.click(await screen.findByLabelText('First'));
    await user.tab();
    expect(screen.getByText(messages.firstNameRequired)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    const summary = await screen.findByRole('alert');
    await waitFor(() =>
      expect(screen.getAllByRole('link').map((link) => link.textContent)).toEqual([
        messages.firstNameRequired,
        messages.lastNameRequired,
      ]),
    );
    await waitFor(() => expect(summary).toHaveFocus());
  });

  it('onAttempt runs at every submit, valid or not, before the check', async () => {
    const calls: string[] = [];
    const user = userEvent.setup();
    renderForm({ onValid: () => calls.push('valid'), onAttempt: () => calls.push('attempt') });
    await user.click(await screen.findByRole('button', { name: 'Send' }));
    expect(calls).toEqual(['attempt']);
    await user.type(screen.getByLabelText('First'), 'Ada');
    await user.type(screen.getByLabelText('Last'), 'Byron');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(calls).toEqual(['attempt', 'attempt', 'valid']);
  });

  it("a long form checks a field when it is left and leads its summary with 'formInvalid'", async () => {
    const user = userEvent.setup();
    renderForm({ long: true, onValid: vi.fn() });
    await user.click(await screen.findByLabelText('First'));
    await user.tab();
    expect(await screen.findByText(messages.firstNameRequired)).toBeVisible();
    expect(screen.queryByRole('alert')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(messages.formInvalid);
  });

  it('an error of a field left by a pointer press waits until the press is over, so the click still lands', async () => {
    const onValid = vi.fn();
    const user = userEvent.setup();
    renderForm({ long: true, onValid });
    await user.type(await screen.findByLabelText('Last'), 'Byron');
    await user.click(screen.getByLabelText('First'));
    const send = screen.getByRole('button', { name: 'Send' });
    await user.pointer({ keys: '[MouseLeft>]', target: send });
    expect(screen.getByLabelText('First')).not.toHaveFocus();
    // the field left has been checked by now; its error would move the button being pressed
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText(messages.firstNameRequired)).toBeNull();

    await user.pointer({ keys: '[/MouseLeft]', target: send });
    // the click submitted: the failed submit's summary, and the field's own error
    expect(await screen.findByRole('alert')).toHaveTextContent(messages.formInvalid);
    expect(screen.getAllByText(messages.firstNameRequired)).toHaveLength(2);
    expect(onValid).not.toHaveBeenCalled();
  });

  it('a press that clicks nothing shows the error of the field it left once released', async () => {
    const user = userEvent.setup();
    renderForm({ long: true, onValid: vi.fn() });
    await user.click(await screen.findByLabelText('First'));
    await user.pointer({ keys: '[MouseLeft>]', target: document.body });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText(messages.firstNameRequired)).toBeNull();
    await user.pointer({ keys: '[/MouseLeft]', target: document.body });
    expect(await screen.findByText(messages.firstNameRequired)).toBeVisible();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
