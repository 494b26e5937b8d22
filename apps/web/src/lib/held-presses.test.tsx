import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { HELD_PRESSES_GLOBAL, type HeldPresses } from '@frontdoor/contract';
import { pressHeldAgain, PressHeldAgain } from './held-presses.ts';

type Scope = Parameters<typeof pressHeldAgain>[0];
/** An element as React leaves it once hydrated (its props under a `__reactProps$` key). */
const hydratedElement = <K extends keyof HTMLElementTagNameMap>(tag: K) =>
  Object.assign(document.body.appendChild(document.createElement(tag)), { __reactProps$test: {} });
const scopeHolding = (...targets: Element[]) => {
  const held: HeldPresses = { targets, stop: vi.fn() };
  return { scope: { [HELD_PRESSES_GLOBAL]: held } as unknown as Scope, held };
};

describe('pressHeldAgain', () => {
  it('stops the holding and presses the last held button once', () => {
    const first = hydratedElement('button');
    const last = hydratedElement('button');
    const pressed = { first: vi.fn(), last: vi.fn() };
    first.addEventListener('click', pressed.first);
    last.addEventListener('click', pressed.last);
    const { scope, held } = scopeHolding(first, last, last);
    pressHeldAgain(scope);
    expect(held.stop).toHaveBeenCalledOnce();
    expect(pressed.last).toHaveBeenCalledOnce();
    expect(pressed.first).not.toHaveBeenCalled();
    expect(scope![HELD_PRESSES_GLOBAL as never]).toBeUndefined();
    // a second call (StrictMode runs effects twice) presses nothing more
    pressHeldAgain(scope);
    expect(pressed.last).toHaveBeenCalledOnce();
  });

  it('makes each radio choice held before hydration again, in order, before the last press', () => {
    const form = hydratedElement('form');
    const radio = (value: string) =>
      Object.assign(form.appendChild(document.createElement('input')), {
        type: 'radio',
        name: 'description',
        value,
        __reactProps$test: {},
      });
    const teacher = radio('teacher');
    const student = radio('student');
    const submit = Object.assign(form.appendChild(document.createElement('button')), {
      __reactProps$test: {},
    });
    const order: string[] = [];
    form.addEventListener('change', (event) => order.push((event.target as HTMLInputElement).value));
    submit.addEventListener('click', (event) => {
      event.preventDefault();
      order.push('submit');
    });
    pressHeldAgain(scopeHolding(teacher, submit, student).scope);
    expect(order).toEqual(['teacher', 'student', 'submit']);
    expect(student.checked).toBe(true);
    form.remove();
  });

  it('waits for a held radio to be hydrated too', () => {
    const radio = Object.assign(document.body.appendChild(document.createElement('input')), {
      type: 'radio',
    });
    const { scope, held } = scopeHolding(radio);
    expect(pressHeldAgain(scope)).toBe(false);
    expect(radio.checked).toBe(false);
    Object.assign(radio, { __reactProps$test: {} });
    expect(pressHeldAgain(scope)).toBe(true);
    expect(held.stop).toHaveBeenCalledOnce();
    expect(radio.checked).toBe(true);
    radio.remove();
  });

  it('submits a form held without a button, through its submit event', () => {
    const form = hydratedElement('form');
    const submitted = vi.fn((event: Event) => event.preventDefault());
    form.addEventListener('submit', submitted);
    pressHeldAgain(scopeHolding(form).scope);
    expect(submitted).toHaveBeenCalledOnce();
  });

  it('holds on while the pressed element is not hydrated yet, so its form cannot submit natively', () => {
    const button = document.body.appendChild(document.createElement('button'));
    const pressed = vi.fn();
    button.addEventListener('click', pressed);
    const { scope, held } = scopeHolding(button);
    expect(pressHeldAgain(scope)).toBe(false);
    expect(held.stop).not.toHaveBeenCalled();
    expect(pressed).not.toHaveBeenCalled();
    Object.assign(button, { __reactProps$test: {} });
    expect(pressHeldAgain(scope)).toBe(true);
    expect(pressed).toHaveBeenCalledOnce();
  });

  it('presses nothing that left the page, and does nothing when nothing was held', () => {
    const gone = document.createElement('button');
    const pressed = vi.fn();
    gone.addEventListener('click', pressed);
    pressHeldAgain(scopeHolding(gone).scope);
    expect(pressed).not.toHaveBeenCalled();
    expect(() => pressHeldAgain({} as Scope)).not.toThrow();
  });

  it('PressHeldAgain presses once the tree before it is committed, as after hydration', () => {
    const pressed = vi.fn();
    const held: HeldPresses = { targets: [], stop: vi.fn() };
    Object.assign(globalThis, { [HELD_PRESSES_GLOBAL]: held });
    render(
      <>
        {/* held as a press before hydration would be: the element exists before the effects run */}
        <button ref={(button) => void (button && held.targets.push(button))} onClick={pressed}>
          Continue
        </button>
        <PressHeldAgain />
      </>,
    );
    expect(held.stop).toHaveBeenCalledOnce();
    expect(pressed).toHaveBeenCalledOnce();
    expect(screen.getByRole('button', { name: 'Continue' })).toBe(held.targets[0]);
  });
});
