import { globSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** The stylesheet's tag: letters only (a, …, Z, aa, ab, …), so that the digits after it end it. */
export function stylesheetTag(index: number): string {
  let tag = '';
  for (let n = index; n >= 0; n = Math.floor(n / LETTERS.length) - 1) tag = LETTERS[n % LETTERS.length] + tag;
  return tag;
}

/** A CSS module's own names, classes and keyframes, in the order they first appear in its source. */
export function localNames(css: string): string[] {
  const names = css.matchAll(/(?:\.|@keyframes\s+)(-?[_a-zA-Z][\w-]*)/g);
  return [...new Set(Array.from(names, (match) => match[1]!))];
}

/**
 * A class's name in the build: its stylesheet's tag and its place in that stylesheet (`c0`, `c1`, `aB12`).
 * A function of the stylesheets and their sources only, so the prerendering's build names every class as
 * the app's does; unique, as tags are letters and places digits.
 */
export function shortClassName(
  stylesheets: readonly string[],
  file: string,
  css: string,
  local: string,
): string {
  const sheet = stylesheets.indexOf(file);
  const place = localNames(css).indexOf(local);
  if (sheet === -1 || place === -1) throw new Error(`no short name for .${local} of ${file}`);
  return `${stylesheetTag(sheet)}${place}`;
}

/**
 * CSS modules' class names as two or three characters in the build, instead of Vite's
 * `_name_hash_line`: every name stands in the page's inline stylesheet and in the first script, and
 * their hashes are what brotli compresses worst (about 0.9 kB of a page's first load). The development
 * server keeps the readable names.
 */
export function shortClassNames(): Plugin {
  return {
    name: 'fd-short-class-names',
    apply: 'build',
    config(config) {
      const root = path.resolve(config.root ?? process.cwd());
      const stylesheets = globSync('src/**/*.module.css', { cwd: root })
        .map((file) => path.join(root, file))
        .sort();
      return {
        css: {
          modules: {
            generateScopedName: (local, filename, css) =>
              shortClassName(stylesheets, filename.split('?')[0]!, css, local),
          },
        },
      };
    },
  };
}
