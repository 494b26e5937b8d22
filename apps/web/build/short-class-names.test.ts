import { describe, expect, it } from 'vitest';
import { localNames, shortClassName, stylesheetTag } from './short-class-names.ts';

describe("CSS modules' short class names", () => {
  it('tags stylesheets with letters only, each its own', () => {
    expect([0, 25, 26, 51, 52, 53].map(stylesheetTag)).toEqual(['a', 'z', 'A', 'Z', 'aa', 'ab']);
    const tags = Array.from({ length: 3000 }, (_, i) => stylesheetTag(i));
    expect(new Set(tags).size).toBe(tags.length);
    expect(tags.every((tag) => /^[a-zA-Z]+$/.test(tag))).toBe(true);
  });

  it("lists a stylesheet's classes and keyframes in the order they first appear, not numbers", () => {
    const css = '.card{margin:.5rem 0.25em}.card:hover .title{}@keyframes spin{}.title-x,.-odd{}';
    expect(localNames(css)).toEqual(['card', 'title', 'spin', 'title-x', '-odd']);
  });

  it('names a class by its stylesheet and its place, never two classes alike', () => {
    const sheets = ['/src/a.module.css', '/src/b.module.css'];
    const css = '.root{}.title{}';
    expect(shortClassName(sheets, sheets[0]!, css, 'title')).toBe('a1');
    expect(shortClassName(sheets, sheets[1]!, css, 'title')).toBe('b1');
    const many = Array.from({ length: 60 }, (_, sheet) => `/src/${sheet}.module.css`);
    const source = Array.from({ length: 30 }, (_, place) => `.c${place}{}`).join('');
    const names = many.flatMap((sheet) =>
      Array.from({ length: 30 }, (_, place) => shortClassName(many, sheet, source, `c${place}`)),
    );
    expect(new Set(names).size).toBe(60 * 30);
    // the app's own classes (global.css) are words with a dash: never letters followed by digits
    expect(names.every((name) => /^[a-zA-Z]+\d+$/.test(name))).toBe(true);
  });

  it('refuses a class it cannot place rather than guess a name another class may have', () => {
    expect(() => shortClassName(['/src/a.module.css'], '/src/a.module.css', '.root{}', 'gone')).toThrow(
      /no short name for \.gone/,
    );
    expect(() => shortClassName(['/src/a.module.css'], '/src/other.module.css', '.root{}', 'root')).toThrow();
  });
});
