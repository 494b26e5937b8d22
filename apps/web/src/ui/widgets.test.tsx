import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { renderToString } from 'react-dom/server';
import { RESEND_COOLDOWN_SECONDS, SCROLL_REVEAL_DEFAULTS } from '@frontdoor/contract';
import { renderWithProviders } from '../test/render.tsx';
import { mediaState } from '../test/match-media.ts';
import { testConfig } from '../test/config.ts';
import { CodeInput, sanitizeCode } from './CodeInput.tsx';
import type { CodeInputProps } from './CodeInput.tsx';
import { CodeResend } from './CodeResend.tsx';
import { SearchField, isSearchShortcut } from './SearchField.tsx';
import { Paginator, pageRange } from './Paginator.tsx';
import { ScrollReveal, shouldReveal } from './ScrollReveal.tsx';
import { nl2br } from './nl2br.tsx';
import { PageCard } from './PageCard.tsx';
import { Spinner } from './Spinner.tsx';

afterEach(() => {
  vi.useRealTimers();
  mediaState.reducedMotion = false;
});

/** A CodeInput with its value, and a CodeResend under it when `onResend` is given. */
function Code({
  onResend,
  resendPrompt,
  waitSeconds,
  ...props
}: Omit<CodeInputProps, 'label' | 'value' | 'onChange' | 'resend'> & {
  onResend?: () => Promise<unknown>;
  resendPrompt?: string;
  waitSeconds?: number;
}) {
  const [value, setValue] = useState('');
  const resend = onResend && (
    <CodeResend onResend={onResend} prompt={resendPrompt} waitSeconds={waitSeconds} />
  );
  return <CodeInput label="Code" value={value} onChange={setValue} resend={resend} {...props} />;
}

/** The live region beside the resend button (the page's snack bar is a status too). */
const resendStatus = () =>
  within(screen.getByRole('button', { name: 'Send a new code' }).parentElement!).getByRole('status');

describe('CodeInput', () => {
  it("is one input for one-time codes: autocomplete, numeric keyboard, a mailed code's 8 digits unless told (an access code's 6)", async () => {
    const user = userEvent.setup();
    const { unmount } = renderWithProviders(<Code />);
    const input = screen.getByRole('textbox', { name: 'Code' });
    expect(input).toHaveAttribute('autocomplete', 'one-time-code');
    expect(input).toHaveAttribute('inputmode', 'numeric');
    await user.type(input, '12a34 5678 90');
    expect(input).toHaveValue('12345678');
    unmount();
    renderWithProviders(<Code length={6} />);
    await user.type(screen.getByRole('textbox', { name: 'Code' }), '12a34 5678');
    expect(screen.getByRole('textbox', { name: 'Code' })).toHaveValue('123456');
  });

  it('keeps a code typed before the page hydrated: a prerendered page on a slow Chromebook takes seconds', () => {
    const seen: string[] = [];
    function Page() {
      const [value, setValue] = useState('');
      const [, renderAgain] = useState(0);
      const keep = (code: string) => {
        seen.push(code);
        setValue(code);
      };
      return (
        <>
          <CodeInput label="Code" value={value} onChange={keep} />
          <button type="button" onClick={() => renderAgain((n) => n + 1)}>
            Render again
          </button>
        </>
      );
    }
    const container = document.body.appendChild(document.createElement('div'));
    container.innerHTML = renderToString(<Page />);
    // typed while the page's script was still on its way
    container.querySelector('input')!.value = '12 34 56';
    render(<Page />, { container, hydrate: true });
    fireEvent.click(screen.getByRole('button', { name: 'Render again' }));
    expect(screen.getByRole('textbox', { name: 'Code' })).toHaveValue('123456');
    expect(seen).toEqual(['123456']);
  });

  it('paste of a spaced or dashed code keeps the code', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Code />);
    const input = screen.getByRole('textbox', { name: 'Code' });
    await user.click(input);
    await user.paste(' 1234 5678 ');
    expect(input).toHaveValue('12345678');
    await user.clear(input);
    await user.paste('12-34-56-78-90');
    expect(input).toHaveValue('12345678');
  });

  it('keeps a code a filler set without an input event (a password manager, a one-time-code tool) once the field is left', async () => {
    const onBlur = vi.fn();
    renderWithProviders(<Code onBlur={onBlur} />);
    const input = screen.getByRole<HTMLInputElement>('textbox', { name: 'Code' });
    // the native setter, as such a tool writes: React sees no change
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, '123 456');
    fireEvent.blur(input);
    expect(onBlur).toHaveBeenCalledTimes(1);
    // a render after it (the form's submit) keeps it
    await act(async () => fireEvent.focus(input));
    expect(input).toHaveValue('123456');
  });

  it('sanitizeCode', () => {
    expect(sanitizeCode(' 1 2 3 ', 6)).toBe('123');
    expect(sanitizeCode('A1-B2-C3-D4', 6)).toBe('1234');
    expect(sanitizeCode('١٢٣ ۴۵۶ ۷', 6)).toBe('123456');
    expect(sanitizeCode('ab-١٢-cd', 6)).toBe('12');
  });

  it('Arabic-Indic and Persian digits, typed, pasted or autofilled, fill the field with ASCII digits', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Code />);
    const input = screen.getByRole('textbox', { name: 'Code' });
    await user.type(input, '١٢٣٤٥٦');
    expect(input).toHaveValue('123456');
    await user.clear(input);
    await user.type(input, '۶۵۴۳۲۱');
    expect(input).toHaveValue('654321');
    await user.clear(input);
    await user.paste('٩٨٧ ٦٥٤');
    expect(input).toHaveValue('987654');
    await user.clear(input);
    // autofill (autocomplete="one-time-code") sets the whole value in one change
    fireEvent.change(input, { target: { value: '۱۲۳-۴۵۶' } });
    expect(input).toHaveValue('123456');
  });

  it("leaves an IME's composition alone (a Japanese keyboard's full-width １２３) and keeps its digits when it ends", () => {
    const seen: string[] = [];
    function Page() {
      const [value, setValue] = useState('');
      const keep = (code: string) => {
        seen.push(code);
        setValue(code);
      };
      return <CodeInput label="Code" value={value} onChange={keep} />;
    }
    renderWithProviders(<Page />);
    const input = screen.getByRole('textbox', { name: 'Code' });
    fireEvent.compositionStart(input);
    for (const composed of ['１', '１２', '１２３４５６']) {
      fireEvent.input(input, { target: { value: composed }, isComposing: true });
      // rewritten under the IME, the composition would end and the IME insert its text again
      expect(input).toHaveValue(composed);
    }
    fireEvent.compositionEnd(input, { data: '１２３４５６' });
    expect(input).toHaveValue('123456');
    expect(seen).toEqual(['123456']);
  });

  it('resend runs once, then waits the cooldown with a visible countdown', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const onResend = vi.fn(async () => undefined);
    renderWithProviders(<Code onResend={onResend} />);
    const resend = screen.getByRole('button', { name: 'Send a new code' });
    await user.click(resend);
    expect(onResend).toHaveBeenCalledOnce();
    expect(
      screen.getByText(`You can ask for a new code in ${RESEND_COOLDOWN_SECONDS} s.`),
    ).toBeInTheDocument();
    await user.click(resend);
    expect(onResend).toHaveBeenCalledOnce();
    act(() => vi.advanceTimersByTime(1000));
    expect(
      screen.getByText(`You can ask for a new code in ${RESEND_COOLDOWN_SECONDS - 1} s.`),
    ).toBeInTheDocument();
    for (let i = 1; i < RESEND_COOLDOWN_SECONDS; i++) act(() => vi.advanceTimersByTime(1000));
    expect(screen.queryByText(/You can ask for a new code in/)).not.toBeInTheDocument();
    await user.click(resend);
    expect(onResend).toHaveBeenCalledTimes(2);
  });

  it('the resend button, not the code field, is described by its prompt and the countdown', () => {
    vi.useFakeTimers();
    renderWithProviders(
      <Code
        onResend={async () => undefined}
        resendPrompt="Didn't get the email?"
        waitSeconds={RESEND_COOLDOWN_SECONDS}
      />,
    );
    const resend = screen.getByRole('button', { name: 'Send a new code' });
    expect(resend).toHaveAttribute('aria-disabled', 'true');
    expect(resend).toHaveAccessibleDescription(
      `Didn't get the email? You can ask for a new code in ${RESEND_COOLDOWN_SECONDS} s.`,
    );
    expect(screen.getByRole('textbox', { name: 'Code' })).not.toHaveAccessibleDescription();
    for (let i = 0; i < RESEND_COOLDOWN_SECONDS; i++) act(() => vi.advanceTimersByTime(1000));
    expect(resend).not.toHaveAttribute('aria-disabled');
    expect(resend).toHaveAccessibleDescription("Didn't get the email?");
  });

  it('says once, politely, that a new code can be asked for when the countdown ends (not every second)', async () => {
    // time moves only when the test says: a loaded machine's real time must not end a countdown early
    vi.useFakeTimers();
    renderWithProviders(<Code onResend={async () => undefined} waitSeconds={RESEND_COOLDOWN_SECONDS} />);
    const status = resendStatus();
    const said: string[] = [status.textContent ?? ''];
    for (let i = 0; i < RESEND_COOLDOWN_SECONDS; i++) {
      act(() => vi.advanceTimersByTime(1000));
      said.push(status.textContent ?? '');
    }
    expect(said.filter(Boolean)).toEqual(['You can ask for a new code now.']);
    expect(said.at(-1)).toBe('You can ask for a new code now.');
    // a new code asked for: quiet again until its countdown ends
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send a new code' })));
    expect(status).toBeEmptyDOMElement();
    for (let i = 0; i < RESEND_COOLDOWN_SECONDS; i++) act(() => vi.advanceTimersByTime(1000));
    expect(status).toHaveTextContent('You can ask for a new code now.');
  });

  it('the countdown catches up with a tab that slept (no ticks while the lid was closed), and a clock set back never makes it count up', () => {
    vi.useFakeTimers();
    renderWithProviders(<Code onResend={async () => undefined} waitSeconds={RESEND_COOLDOWN_SECONDS} />);
    const resend = screen.getByRole('button', { name: 'Send a new code' });
    act(() => vi.advanceTimersByTime(1000));
    expect(resend).toHaveAccessibleDescription(
      `You can ask for a new code in ${RESEND_COOLDOWN_SECONDS - 1} s.`,
    );
    // asleep: the clock moves on, no timer runs until the tab wakes
    vi.setSystemTime(Date.now() + 20_000);
    act(() => vi.advanceTimersByTime(1000));
    expect(resend).toHaveAccessibleDescription(
      `You can ask for a new code in ${RESEND_COOLDOWN_SECONDS - 22} s.`,
    );
    vi.setSystemTime(Date.now() - 3_600_000);
    act(() => vi.advanceTimersByTime(1000));
    expect(resend).toHaveAccessibleDescription(
      `You can ask for a new code in ${RESEND_COOLDOWN_SECONDS - 23} s.`,
    );
  });

  it('says nothing when no countdown has run', () => {
    renderWithProviders(<Code onResend={async () => undefined} />);
    expect(resendStatus()).toBeEmptyDOMElement();
  });
});

describe('SearchField', () => {
  it("placeholder 'Jump to...' and ctrl/cmd+K focuses it", async () => {
    const user = userEvent.setup();
    function Demo() {
      const [q, setQ] = useState('');
      return (
        <>
          <button type="button">elsewhere</button>
          <SearchField value={q} onChange={setQ} />
        </>
      );
    }
    renderWithProviders(<Demo />);
    const input = screen.getByRole('searchbox', { name: 'Search' });
    expect(input).toHaveAttribute('placeholder', 'Jump to...');
    screen.getByRole('button', { name: 'elsewhere' }).focus();
    await user.keyboard('{Control>}k{/Control}');
    expect(input).toHaveFocus();
    screen.getByRole('button', { name: 'elsewhere' }).focus();
    await user.keyboard('{Meta>}K{/Meta}');
    expect(input).toHaveFocus();
    screen.getByRole('button', { name: 'elsewhere' }).focus();
    await user.keyboard('k');
    expect(input).not.toHaveFocus();
  });

  it('isSearchShortcut', () => {
    expect(isSearchShortcut({ key: 'k', ctrlKey: true, metaKey: false, altKey: false })).toBe(true);
    expect(isSearchShortcut({ key: 'k', ctrlKey: false, metaKey: true, altKey: false })).toBe(true);
    expect(isSearchShortcut({ key: 'k', ctrlKey: true, metaKey: false, altKey: true })).toBe(false);
    expect(isSearchShortcut({ key: 'j', ctrlKey: true, metaKey: false, altKey: false })).toBe(false);
  });
});

describe('Paginator', () => {
  it("labels the page size 'Items per page:' and pages with buttons", async () => {
    const user = userEvent.setup();
    const onPageChange = vi.fn();
    const onPageSizeChange = vi.fn();
    renderWithProviders(
      <Paginator
        page={0}
        pageSize={10}
        total={25}
        onPageChange={onPageChange}
        onPageSizeChange={onPageSizeChange}
      />,
    );
    expect(screen.getByRole('combobox', { name: 'Items per page:' })).toHaveValue('10');
    expect(screen.getByText('1–10 of 25')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(onPageChange).toHaveBeenCalledWith(1);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Items per page:' }), '25');
    expect(onPageSizeChange).toHaveBeenCalledWith(25);
  });

  it('pageRange', () => {
    expect(pageRange(1, 10, 25)).toEqual({ from: 11, to: 20 });
    expect(pageRange(2, 10, 25)).toEqual({ from: 21, to: 25 });
    expect(pageRange(0, 10, 0)).toEqual({ from: 0, to: 0 });
  });
});

describe('ScrollReveal', () => {
  it('defaults: offset 120, delay 0, duration 400 ms, ease, throttle 99 ms, debounce 50 ms', () => {
    expect(SCROLL_REVEAL_DEFAULTS).toEqual({
      offset: 120,
      delay: 0,
      duration: 400,
      easing: 'ease',
      throttleDelay: 99,
      debounceDelay: 50,
    });
    render(<ScrollReveal>Hello</ScrollReveal>);
    const wrapper = screen.getByText('Hello');
    expect(wrapper.style.transitionDuration).toBe('400ms');
    expect(wrapper.style.transitionDelay).toBe('0ms');
    expect(wrapper.style.transitionTimingFunction).toBe('ease');
  });

  it('reveals when the top comes offset px into view (scroll checks throttled)', () => {
    vi.useFakeTimers();
    render(<ScrollReveal>Below</ScrollReveal>);
    const wrapper = screen.getByText('Below');
    // jsdom lays nothing out (top 0), so the first check already reveals it
    expect(wrapper).toHaveAttribute('data-reveal', 'shown');
    expect(shouldReveal(700, 768, 120)).toBe(false);
    expect(shouldReveal(648, 768, 120)).toBe(true);
  });

  it('is off under prefers-reduced-motion: content shown without animation', () => {
    mediaState.reducedMotion = true;
    render(<ScrollReveal>Calm</ScrollReveal>);
    const wrapper = screen.getByText('Calm');
    expect(wrapper).toHaveAttribute('data-reveal', 'static');
    expect(wrapper.style.transitionDuration).toBe('');
  });
});

describe('nl2br', () => {
  it('turns line breaks into <br> elements and never injects HTML', () => {
    const { container } = render(<p>{nl2br('one\ntwo\r\nthree\r<b>four</b>')}</p>);
    expect(container.querySelectorAll('br')).toHaveLength(3);
    expect(container.querySelector('b')).toBeNull();
    expect(container.textContent).toBe('onetwothree<b>four</b>');
  });
});

describe('PageCard and Spinner', () => {
  it('a page has one h1 naming its region', () => {
    renderWithProviders(
      <PageCard title="Verify your email" lead="Enter the code">
        body
      </PageCard>,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Verify your email' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Verify your email' })).toHaveTextContent('Enter the code');
  });

  it('names the browser tab after the page heading and the provider', () => {
    renderWithProviders(<PageCard title="Verify your email" />);
    expect(document.title).toBe(`Verify your email · ${testConfig.providerName}`);
  });

  it('a spinner is a status with a label', () => {
    renderWithProviders(<Spinner />);
    // the snack bar's region is the app's other status element
    expect(screen.getAllByRole('status').filter((el) => el.textContent === 'Loading')).toHaveLength(1);
  });
});
