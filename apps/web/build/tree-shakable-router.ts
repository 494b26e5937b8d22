import MagicString from 'magic-string';
import type { Plugin } from 'vite';

/** react-router's production modules, the ones written as below. */
const ROUTER_MODULE = /[\\/]node_modules[\\/]react-router[\\/]dist[\\/]production[\\/]/;
/** A component or context made at the top of a module: a call with no effect but its value. */
const MADE = /= (React\$1\.(?:forwardRef|memo|createContext)\()/g;
/** A name for React DevTools, written on its own line after the component or context it names. */
const NAMED = /^[A-Za-z_$][\w$]*\.displayName = "[^"\n]*";\n/gm;

/**
 * react-router's production build writes `const Link = React$1.forwardRef(…)` and, on the next line,
 * `Link.displayName = "Link"`. The bundler keeps both when nothing uses Link (a call it cannot know
 * is pure, then a property write), and with Link, NavLink, Form and unused contexts comes what they
 * reach: 1.6 kB compressed of the first script. This marks those calls pure and drops the names
 * (DevTools then shows the functions' own names), so what the app does not use is left out.
 */
export function treeShakableRouterModule(code: string): MagicString | undefined {
  const out = new MagicString(code);
  for (const match of code.matchAll(MADE)) out.appendLeft(match.index + 2, '/* @__PURE__ */ ');
  for (const match of code.matchAll(NAMED)) out.remove(match.index, match.index + match[0].length);
  return out.hasChanged() ? out : undefined;
}

export function treeShakableRouter(): Plugin {
  return {
    name: 'fd-tree-shakable-router',
    apply: 'build',
    transform: {
      filter: { id: ROUTER_MODULE },
      handler(code, id) {
        const out = treeShakableRouterModule(code);
        if (!out) return;
        return { code: out.toString(), map: out.generateMap({ hires: true, source: id }) };
      },
    },
  };
}
