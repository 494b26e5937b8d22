import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { act, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { tolerateTranslatedText } from './translated-dom.ts';

/** What page translation does to a text: a translated copy in <font><font>, in the text's place. */
function translate(container: HTMLElement, moveOriginal: boolean): void {
  const walker = document.createTreeWalker(container, NodeFilter.SHOW_TEXT);
  const texts: Text[] = [];
  while (walker.nextNode()) texts.push(walker.currentNode as Text);
  for (const text of texts) {
    const outer = document.createElement('font');
    const inner = outer.appendChild(document.createElement('font'));
    text.replaceWith(outer);
    if (moveOriginal) inner.append(text);
    else inner.append(`[fr] ${text.data}`);
  }
}

function Form() {
  const [step, setStep] = useState<'question' | 'refused' | 'preferences'>('question');
  return (
    <div>
      {step === 'preferences' ? 'Which topics?' : 'Are you a student?'}
      <button type="button" onClick={() => setStep(step === 'question' ? 'refused' : 'preferences')}>
        {step === 'refused' && <span data-testid="spinner" />}
        Next
      </button>
      {step === 'refused' && <p role="alert">Try again.</p>}
    </div>
  );
}

describe('a page translated in the browser (react#11538)', () => {
  const { insertBefore, removeChild } = Node.prototype;
  beforeAll(() => tolerateTranslatedText());
  afterAll(() => {
    Node.prototype.insertBefore = insertBefore;
    Node.prototype.removeChild = removeChild;
  });

  for (const moveOriginal of [false, true]) {
    it(`takes a refusal and the next step, its texts ${moveOriginal ? 'wrapped' : 'replaced'}`, async () => {
      const container = document.body.appendChild(document.createElement('div'));
      const root = createRoot(container);
      await act(async () => root.render(<Form />));
      translate(container, moveOriginal);
      const next = () => container.querySelector('button')!;
      await act(async () => next().click());
      const spinner = container.querySelector('[data-testid="spinner"]');
      // before the button's text where translation left it there, else in the button all the same
      if (moveOriginal) expect(next().firstChild).toBe(spinner);
      else expect(next().contains(spinner)).toBe(true);
      expect(container.querySelector('[role="alert"]')).not.toBeNull();
      await act(async () => next().click());
      expect(container.querySelector('[data-testid="spinner"]')).toBeNull();
      expect(container.querySelector('[role="alert"]')).toBeNull();
      // a text React changes in place shows where translation kept its node; where translation
      // replaced it, its translated copy stays until the page is loaded again
      if (moveOriginal) expect(container.textContent).toContain('Which topics?');
      await act(async () => root.unmount());
      container.remove();
    });
  }
});
