import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { treeShakableRouterModule } from './tree-shakable-router.ts';

const snippet = [
  'const NavigationContext = React$1.createContext(null);',
  'NavigationContext.displayName = "Navigation";',
  'const Link = React$1.forwardRef(function LinkWithRef(props, ref) {',
  '\tconst [state] = React$1.useState(0);',
  '});',
  'Link.displayName = "Link";',
  '',
].join('\n');

describe("react-router's production modules, made tree-shakable", () => {
  it('marks the components and contexts made at the top pure, drops their names, and leaves hooks alone', () => {
    expect(treeShakableRouterModule(snippet)?.toString()).toBe(
      [
        'const NavigationContext = /* @__PURE__ */ React$1.createContext(null);',
        'const Link = /* @__PURE__ */ React$1.forwardRef(function LinkWithRef(props, ref) {',
        '\tconst [state] = React$1.useState(0);',
        '});',
        '',
      ].join('\n'),
    );
  });

  it('leaves a module without them as it is', () => {
    expect(treeShakableRouterModule('export const a = 1;\n')).toBeUndefined();
  });

  // an upgrade of react-router that writes its components another way fails here, not silently in the bench
  it("finds them in the installed react-router's DOM module: Link, NavLink and Form", () => {
    const require = createRequire(import.meta.url);
    const root = path.dirname(require.resolve('react-router/package.json'));
    const code = readFileSync(path.join(root, 'dist/production/lib/dom/lib.js'), 'utf8');
    const out = treeShakableRouterModule(code)?.toString() ?? '';
    for (const name of ['Link', 'NavLink', 'Form']) {
      const named = new RegExp(`^${name}\\.displayName = `, 'm');
      expect(code).toMatch(named);
      expect(out).not.toMatch(named);
      expect(out).toMatch(new RegExp(`const ${name} = /\\* @__PURE__ \\*/ React\\$1\\.forwardRef\\(`));
    }
  });
});
