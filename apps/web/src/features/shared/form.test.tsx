import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as z from 'zod/mini';
import { useForm } from '../../lib/form.ts';
import { useTranslation } from '../../lib/i18n/use-translation.tsx';
import { renderWithProviders } from '../../test/render.tsx';
import { NewPasswordFields } from './form.tsx';

const newPassword = z.object({ pw: z.string(), confirmPw: z.string() });

function Fields() {
  const form = useForm({ schema: newPassword, defaultValues: { pw: '', confirmPw: '' } });
  const { t } = useTranslation('signup');
  return (
    <NewPasswordFields
      ids={{ pw: 'pw', confirmPw: 'confirm-pw' }}
      t={t}
      fields={{ form, fieldError: () => undefined }}
    />
  );
}

describe('the new-password checklist (issue 12)', () => {
  it('describes the password field', () => {
    renderWithProviders(<Fields />);
    const password = screen.getByLabelText('Password');
    expect(password.getAttribute('aria-describedby')?.split(' ')).toContain('pw-rules');
    expect(password).toHaveAccessibleDescription(/^Your password needs: .*At least 12 characters/);
  });

  it('a polite status says how many rules are met, once typing has begun', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Fields />);
    const status = document.querySelector('#pw-rules')?.previousElementSibling;
    expect(status).toHaveAttribute('role', 'status');
    expect(status).toHaveTextContent(/^$/);
    await user.type(screen.getByLabelText('Password'), 'Ab');
    expect(status).toHaveTextContent('2 of 5 password rules met.');
    await user.type(screen.getByLabelText('Password'), 'cdefghij1#k');
    expect(status).toHaveTextContent('5 of 5 password rules met.');
  });

  it("a rule's met or needed word follows the password in a page the browser translated", async () => {
    const user = userEvent.setup();
    renderWithProviders(<Fields />);
    const rule = () => document.querySelector('[data-flag="digitMissing"]');
    // page translation puts a copy of each text in <font> elements, in the text's place
    const walker = document.createTreeWalker(rule()!, NodeFilter.SHOW_TEXT);
    const texts: Text[] = [];
    while (walker.nextNode()) texts.push(walker.currentNode as Text);
    for (const text of texts)
      text.replaceWith(Object.assign(document.createElement('font'), { textContent: text.data }));
    expect(rule()).toHaveTextContent('○ A digit (still needed)');
    await user.type(screen.getByLabelText('Password'), '1');
    expect(rule()).toHaveTextContent('✓ A digit (done)');
  });
});
